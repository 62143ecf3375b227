package main

import (
	"context"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

// BenchmarkDeviceMatches times upstream's evaluation alone (no cgo, no decoding), the floor under
// CelSelector::Matches: go test -bench . (from this folder, with the module cache of ci/setup).
func BenchmarkDeviceMatches(b *testing.B) {
	// The device of cel_selector_bench.cc.
	model, index, mig := "SOME-XYZ", int64(3), false
	version, uuid := "550.54.15", "GPU-0a1b2c3d-4e5f-6789-abcd-ef0123456789"
	device := dracel.Device{
		Driver: "gpu.example.com",
		Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
			"model":         {StringValue: &model},
			"index":         {IntValue: &index},
			"mig":           {BoolValue: &mig},
			"driverVersion": {VersionValue: &version},
			"uuid":          {StringValue: &uuid},
		},
		Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{
			"memory": {Value: resource.MustParse("80Gi")},
			"cores":  {Value: resource.MustParse("132")},
		},
	}
	for _, expr := range []string{"true", `device.driver == "gpu.example.com"`} {
		result := dracel.NewCache(1, dracel.Features{EnableConsumableCapacity: true}).GetOrCompile(expr)
		if result.Error != nil {
			b.Fatal(result.Error)
		}
		b.Run(expr, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := result.DeviceMatches(context.Background(), device); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
