#!/usr/bin/env bash
# Regenerates the Go code of the protocol and trace schema (harness/kube/common/pb) from the
# .proto files the C++ side compiles. The generated files are committed; run this after changing
# reference/k8s/k8s.proto, traces/trace.proto or harness/protocol/protocol.proto.
# Needs protoc (Debian's protobuf-compiler) and Go; protoc-gen-go is built at the version that
# common/go.mod pins, so the generated code matches the runtime the adapters link.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
version=$(cd harness/kube/common && "$GO" list -m -f '{{.Version}}' google.golang.org/protobuf)
GOBIN=$bin "$GO" install "google.golang.org/protobuf/cmd/protoc-gen-go@$version"
pkg=schedcheck.local/kube/common/pb
out=$(mktemp -d)
PATH=$bin:$PATH protoc -I"$root" --go_out="$out" \
  --go_opt=Mreference/k8s/k8s.proto=$pkg --go_opt=Mtraces/trace.proto=$pkg \
  --go_opt=Mharness/protocol/protocol.proto=$pkg --go_opt=paths=import \
  reference/k8s/k8s.proto traces/trace.proto harness/protocol/protocol.proto
cp "$out/$pkg"/*.pb.go harness/kube/common/pb/
rm -rf "$out"
echo "gen_pb.sh: wrote harness/kube/common/pb/*.pb.go"
