//go:build !kube1_35

package adapter

import "k8s.io/client-go/tools/events"

// fakeRecorders is the event recorder factory scheduler.New takes (profile.RecorderFactory, whose
// recorder type v1.36 widened to EventRecorderLogger; recorders_1_35.go for v1.35).
func fakeRecorders(string) events.EventRecorderLogger { return &events.FakeRecorder{} }
