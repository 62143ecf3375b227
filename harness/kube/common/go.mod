module schedcheck.local/kube/common

go 1.20

require google.golang.org/protobuf v1.31.0
