// Package objects turns the trace's Kubernetes messages (reference/k8s/k8s.proto) into the
// Kubernetes JSON their proto3 JSON mapping stands for, so that an adapter can decode them into
// client-go types with the API machinery's own decoder.
//
// protojson alone is not enough: it writes 64-bit integers as strings ("30"), which the
// Kubernetes types reject. This walk writes every integer as a number and otherwise follows the
// proto3 JSON rules (json_name keys, only fields that are set, google.protobuf.Value as is).
package objects

import (
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// KubeJSON returns the Kubernetes JSON of m.
func KubeJSON(m proto.Message) ([]byte, error) {
	tree, err := messageTree(m.ProtoReflect())
	if err != nil {
		return nil, err
	}
	return json.Marshal(tree)
}

func messageTree(m protoreflect.Message) (any, error) {
	if m.Descriptor().FullName() == "google.protobuf.Value" {
		raw, err := protojson.Marshal(m.Interface())
		if err != nil {
			return nil, err
		}
		return json.RawMessage(raw), nil
	}
	out := map[string]any{}
	var rangeErr error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		value, err := fieldTree(fd, v)
		if err != nil {
			rangeErr = fmt.Errorf("%s: %w", fd.JSONName(), err)
			return false
		}
		out[fd.JSONName()] = value
		return true
	})
	return out, rangeErr
}

func fieldTree(fd protoreflect.FieldDescriptor, v protoreflect.Value) (any, error) {
	switch {
	case fd.IsList():
		list := v.List()
		items := make([]any, 0, list.Len())
		for i := 0; i < list.Len(); i++ {
			item, err := singular(fd, list.Get(i))
			if err != nil {
				return nil, err
			}
			items = append(items, item)
		}
		return items, nil
	case fd.IsMap():
		out := map[string]any{}
		var err error
		v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			var item any
			item, err = singular(fd.MapValue(), mv)
			out[k.String()] = item
			return err == nil
		})
		return out, err
	default:
		return singular(fd, v)
	}
}

func singular(fd protoreflect.FieldDescriptor, v protoreflect.Value) (any, error) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return messageTree(v.Message())
	case protoreflect.EnumKind:
		return string(fd.Enum().Values().ByNumber(v.Enum()).Name()), nil
	case protoreflect.BytesKind:
		return v.Bytes(), nil
	default:
		return v.Interface(), nil
	}
}
