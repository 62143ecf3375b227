package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

// The compact device form (written by reference/dra_cel/cel_selector.cc). All integers are
// little-endian uint32; a string is its length then its bytes.
//
//	device      = driver:string multi:byte nattrs:u32 attr* ncaps:u32 cap*
//	multi       = 0 unset | 1 false | 2 true    (allowMultipleAllocations)
//	attr        = name:string kind:byte value:string
//	kind        = 'i' int (decimal) | 'b' bool ("true"/"false") | 's' string | 'v' version
//	cap         = name:string quantity:string   (Kubernetes quantity text, e.g. "10Gi")
//
// Values travel as text so that Go parses them as the API server would: a version attribute's
// text reaches upstream's semver.Parse unchanged, a capacity's text resource.ParseQuantity.
type reader struct {
	buf []byte
	pos int
}

var errShort = errors.New("truncated")

func (r *reader) u32() (uint32, error) {
	if len(r.buf)-r.pos < 4 {
		return 0, errShort
	}
	v := binary.LittleEndian.Uint32(r.buf[r.pos:])
	r.pos += 4
	return v, nil
}

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.buf) {
		return 0, errShort
	}
	b := r.buf[r.pos]
	r.pos++
	return b, nil
}

func (r *reader) str() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if uint64(len(r.buf)-r.pos) < uint64(n) {
		return "", errShort
	}
	s := string(r.buf[r.pos : r.pos+int(n)])
	r.pos += int(n)
	return s, nil
}

func decodeDevice(buf []byte) (dracel.Device, error) {
	r := &reader{buf: buf}
	var d dracel.Device
	var err error
	if d.Driver, err = r.str(); err != nil {
		return d, fmt.Errorf("driver: %w", err)
	}
	multi, err := r.byte()
	if err != nil {
		return d, fmt.Errorf("allowMultipleAllocations: %w", err)
	}
	switch multi {
	case 0:
	case 1, 2:
		v := multi == 2
		d.AllowMultipleAllocations = &v
	default:
		return d, fmt.Errorf("allowMultipleAllocations: bad tag %d", multi)
	}
	if d.Attributes, err = decodeAttributes(r); err != nil {
		return d, err
	}
	if d.Capacity, err = decodeCapacity(r); err != nil {
		return d, err
	}
	if r.pos != len(buf) {
		return d, fmt.Errorf("%d bytes after the device", len(buf)-r.pos)
	}
	return d, nil
}

func decodeAttributes(r *reader) (map[resourceapi.QualifiedName]resourceapi.DeviceAttribute, error) {
	n, err := r.u32()
	if err != nil {
		return nil, fmt.Errorf("attribute count: %w", err)
	}
	attrs := make(map[resourceapi.QualifiedName]resourceapi.DeviceAttribute, n)
	for i := uint32(0); i < n; i++ {
		name, err := r.str()
		if err != nil {
			return nil, fmt.Errorf("attribute %d: name: %w", i, err)
		}
		kind, err := r.byte()
		if err != nil {
			return nil, fmt.Errorf("attribute %s: kind: %w", name, err)
		}
		text, err := r.str()
		if err != nil {
			return nil, fmt.Errorf("attribute %s: value: %w", name, err)
		}
		var a resourceapi.DeviceAttribute
		switch kind {
		case 'i':
			v, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("attribute %s: int %q: %w", name, text, err)
			}
			a.IntValue = &v
		case 'b':
			if text != "true" && text != "false" {
				return nil, fmt.Errorf("attribute %s: bool %q: want true or false", name, text)
			}
			v := text == "true"
			a.BoolValue = &v
		case 's':
			a.StringValue = &text
		case 'v':
			a.VersionValue = &text
		default:
			return nil, fmt.Errorf("attribute %s: unknown kind %q", name, kind)
		}
		attrs[resourceapi.QualifiedName(name)] = a
	}
	return attrs, nil
}

func decodeCapacity(r *reader) (map[resourceapi.QualifiedName]resourceapi.DeviceCapacity, error) {
	n, err := r.u32()
	if err != nil {
		return nil, fmt.Errorf("capacity count: %w", err)
	}
	caps := make(map[resourceapi.QualifiedName]resourceapi.DeviceCapacity, n)
	for i := uint32(0); i < n; i++ {
		name, err := r.str()
		if err != nil {
			return nil, fmt.Errorf("capacity %d: name: %w", i, err)
		}
		text, err := r.str()
		if err != nil {
			return nil, fmt.Errorf("capacity %s: quantity: %w", name, err)
		}
		q, err := resource.ParseQuantity(text)
		if err != nil {
			return nil, fmt.Errorf("capacity %s: quantity %q: %w", name, text, err)
		}
		caps[resourceapi.QualifiedName(name)] = resourceapi.DeviceCapacity{Value: q}
	}
	return caps, nil
}
