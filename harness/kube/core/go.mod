module schedcheck.local/kube/core

go 1.26.0
