package adapterkit

import (
	"google.golang.org/protobuf/proto"

	"schedcheck.local/kube/common/pb"
)

// DRAName names the object of a DRA event for error messages, as " (kind namespace/name)".
func DRAName(e *pb.ApiEvent) string {
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_ResourceClaim:
		m := obj.ResourceClaim.GetMetadata()
		return " (resourceClaim " + m.GetNamespace() + "/" + m.GetName() + ")"
	case *pb.ApiEvent_ResourceClaimTemplate:
		m := obj.ResourceClaimTemplate.GetMetadata()
		return " (resourceClaimTemplate " + m.GetNamespace() + "/" + m.GetName() + ")"
	case *pb.ApiEvent_ResourceSlice:
		return " (resourceSlice " + obj.ResourceSlice.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_DeviceClass:
		return " (deviceClass " + obj.DeviceClass.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_DeviceTaintRule:
		return " (deviceTaintRule " + obj.DeviceTaintRule.GetMetadata().GetName() + ")"
	}
	return ""
}

// Decode turns a trace object into its client-go type through its Kubernetes JSON (for the
// kinds an adapter converts itself).
func Decode(m proto.Message, into interface{}) error { return decode(m, into) }
