package adapter

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/scheduler"

	"schedcheck.local/kube/common/objects"
	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// TestDRAConversionKeepsEveryField fills every field the trace schema has for each DRA kind (and
// the DRA fields of a pod), converts it as the adapter does, and checks that every value of the
// trace's Kubernetes JSON is in the resource.k8s.io/v1 (core/v1) object, at the same path: a field
// the schema carries but upstream's type names otherwise would be dropped silently by the decoder.
func TestDRAConversionKeepsEveryField(t *testing.T) {
	for _, tc := range []struct {
		msg   proto.Message
		into  any
		paths []string // the subtrees compared; none: all
	}{
		{msg: &pb.ResourceClaim{}, into: &resourcev1.ResourceClaim{}},
		{msg: &pb.ResourceClaimTemplate{}, into: &resourcev1.ResourceClaimTemplate{}},
		{msg: &pb.ResourceSlice{}, into: &resourcev1.ResourceSlice{}},
		{msg: &pb.DeviceClass{}, into: &resourcev1.DeviceClass{}},
		{msg: &pb.DeviceTaintRule{}, into: scheduler.SchedcheckNewDeviceTaintRule()}, // the minor's version
		{msg: &pb.Pod{}, into: &v1.Pod{}, paths: []string{
			"spec.resourceClaims", "spec.containers.0.resources.claims", "spec.initContainers.0.resources.claims",
			"status.resourceClaimStatuses", "status.extendedResourceClaimStatus",
		}},
	} {
		name := string(tc.msg.ProtoReflect().Descriptor().Name())
		t.Run(name, func(t *testing.T) {
			fill(tc.msg.ProtoReflect(), map[protoreflect.FullName]bool{})
			raw, err := objects.KubeJSON(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if err := adapterkit.Decode(tc.msg, tc.into); err != nil {
				t.Fatalf("decoding %s: %v", raw, err)
			}
			back, err := json.Marshal(tc.into)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(back, &got); err != nil {
				t.Fatal(err)
			}
			leaves := 0
			for _, path := range subtrees(tc.paths) {
				w, g := at(want, path), at(got, path)
				if w == nil {
					t.Fatalf("the filled trace object has nothing at %q", path)
				}
				leaves += compare(t, path, w, g)
			}
			if leaves < 3 {
				t.Fatalf("only %d values compared", leaves)
			}
		})
	}
}

func subtrees(paths []string) []string {
	if len(paths) == 0 {
		return []string{""}
	}
	return paths
}

// at is the value at a dotted path (list indexes as numbers); "" is v itself.
func at(v any, path string) any {
	if path == "" {
		return v
	}
	for _, part := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			v = node[part]
		case []any:
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i >= len(node) {
				return nil
			}
			v = node[i]
		default:
			return nil
		}
	}
	return v
}

// compare reports every leaf of want missing from or different in got; it returns the leaves seen.
func compare(t *testing.T, path string, want, got any) int {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := 0
		for _, k := range keys {
			if g == nil {
				t.Errorf("%s.%s: missing in the Kubernetes object", path, k)
				continue
			}
			n += compare(t, path+"."+k, w[k], g[k])
		}
		return n
	case []any:
		g, _ := got.([]any)
		if len(g) != len(w) {
			t.Errorf("%s: %d items in the trace, %d in the Kubernetes object", path, len(w), len(g))
			return 0
		}
		n := 0
		for i := range w {
			n += compare(t, fmt.Sprintf("%s.%d", path, i), w[i], g[i])
		}
		return n
	default:
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: trace %v, Kubernetes object %v", path, want, got)
		}
		return 1
	}
}

// fill sets every field of m: strings to "1" (a valid quantity) or a time for time fields, numbers
// to 7, booleans to true, enums to their last value, one entry in each list and map. A message type
// already on the path (recursion) is left empty.
func fill(m protoreflect.Message, onPath map[protoreflect.FullName]bool) {
	d := m.Descriptor()
	if onPath[d.FullName()] || d.FullName() == "google.protobuf.Value" {
		return
	}
	onPath[d.FullName()] = true
	defer delete(onPath, d.FullName())
	fields := d.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			key := protoreflect.ValueOfString("example.com/k").MapKey()
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v := mp.NewValue()
				fill(v.Message(), onPath)
				mp.Set(key, v)
			} else {
				mp.Set(key, scalar(fd.MapValue()))
			}
		case fd.IsList():
			list := m.Mutable(fd).List()
			if fd.Kind() == protoreflect.MessageKind {
				v := list.NewElement()
				fill(v.Message(), onPath)
				list.Append(v)
			} else {
				list.Append(scalar(fd))
			}
		case fd.Kind() == protoreflect.MessageKind:
			if !onPath[fd.Message().FullName()] && fd.Message().FullName() != "google.protobuf.Value" {
				fill(m.Mutable(fd).Message(), onPath)
			}
		default:
			m.Set(fd, scalar(fd))
		}
	}
}

func scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.StringKind:
		name := fd.JSONName()
		if strings.HasSuffix(name, "Time") || strings.HasSuffix(name, "Timestamp") || name == "timeAdded" {
			return protoreflect.ValueOfString("2026-01-01T00:00:00Z")
		}
		return protoreflect.ValueOfString("1")
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(7)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(7)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(7)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(7)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(7)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(7)
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		return protoreflect.ValueOfEnum(values.Get(values.Len() - 1).Number())
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte("1"))
	}
	panic("unhandled kind " + fd.Kind().String())
}

// TestDRABadQuantityNamesTheField: a quantity of a DRA object that does not parse is an error
// naming the trace record, the object and the field (the JSON decoder alone names none).
func TestDRABadQuantityNamesTheField(t *testing.T) {
	client := fake.NewSimpleClientset()
	factory := adapterkit.NewSyncFactory(client, registration{}, wrapInformer)
	objs := adapterkit.NewObjects(factory)
	objs.SetDRA(newDRAObjects(factory))
	for _, tc := range []struct{ event, want string }{
		{`{"type": "ADDED", "resourceClaim": {"metadata": {"name": "c"}, "spec": {"devices": {"requests": [{"name": "r", "firstAvailable": [{"name": "s", "capacity": {"requests": {"mem": "lots"}}}]}]}}}}`,
			`trace record 3 (resourceClaim /c): spec.devices.requests[0].firstAvailable[0].capacity.requests.mem: invalid quantity "lots"`},
		{`{"type": "ADDED", "resourceSlice": {"metadata": {"name": "s"}, "spec": {"devices": [{"name": "d", "capacity": {"mem": {"value": "1Gi", "requestPolicy": {"validRange": {"step": "x"}}}}}]}}}`,
			`trace record 3 (resourceSlice s): spec.devices[0].capacity.mem.requestPolicy.validRange.step: invalid quantity "x"`},
		{`{"type": "ADDED", "resourceSlice": {"metadata": {"name": "s"}, "spec": {"sharedCounters": [{"name": "set", "counters": {"mem": {"value": "abc"}}}]}}}`,
			`trace record 3 (resourceSlice s): spec.sharedCounters[0].counters.mem: invalid quantity "abc"`},
	} {
		e := &pb.ApiEvent{}
		if err := protojson.Unmarshal([]byte(tc.event), e); err != nil {
			t.Fatal(err)
		}
		err := objs.Apply(e, 3)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Apply(%s):\n got: %v\nwant: %s...", tc.event, err, tc.want)
		}
	}
}

// TestDRACapacityWithoutRequestPolicy: a device capacity without a request policy (a plain
// GPU's memory), or with a policy but no valid range, is accepted; a bad default is still named.
// The quantity check once dereferenced the absent policy (found by the DRA trace generator).
func TestDRACapacityWithoutRequestPolicy(t *testing.T) {
	client := fake.NewSimpleClientset()
	factory := adapterkit.NewSyncFactory(client, registration{}, wrapInformer)
	objs := adapterkit.NewObjects(factory)
	objs.SetDRA(newDRAObjects(factory))
	for i, tc := range []struct{ capacity, want string }{
		{`{"value": "40Gi"}`, ""},
		{`{"value": "40Gi", "requestPolicy": {"default": "10Gi"}}`, ""},
		{`{"value": "40Gi", "requestPolicy": {"default": "ten"}}`,
			`trace record 3 (resourceSlice s2): spec.devices[0].capacity.mem.requestPolicy.default: invalid quantity "ten"`},
	} {
		name := fmt.Sprintf("s%d", i)
		event := `{"type": "ADDED", "resourceSlice": {"metadata": {"name": "` + name + `"}, "spec": {"driver": "d", "pool": {"name": "` + name +
			`"}, "allNodes": true, "devices": [{"name": "d", "capacity": {"mem": ` + tc.capacity + `}}]}}}`
		e := &pb.ApiEvent{}
		if err := protojson.Unmarshal([]byte(event), e); err != nil {
			t.Fatal(err)
		}
		err := objs.Apply(e, 3)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Apply(%s): %v", event, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("Apply(%s):\n got: %v\nwant: %s...", event, err, tc.want)
		}
	}
}
