//go:build kube1_35

package adapter

import "k8s.io/client-go/tools/events"

// fakeRecorders is v1.35's profile.RecorderFactory (recorders.go for later minors).
func fakeRecorders(string) events.EventRecorder { return &events.FakeRecorder{} }
