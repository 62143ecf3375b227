package main

import (
	_ "k8s.io/client-go/kubernetes/fake"
	_ "k8s.io/kubernetes/pkg/scheduler"
	_ "k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	_ "k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	_ "k8s.io/kubernetes/pkg/apis/core/v1"
	_ "k8s.io/utils/clock/testing"
	_ "schedcheck.local/kube/common/pb"
	_ "schedcheck.local/kube/common/protocol"
)

func main() {}
