// Package main is built with -buildmode=c-archive: a C ABI over upstream's DRA CEL package
// (k8s.io/dynamic-resource-allocation/cel at the version kubernetes v1.37.2 requires), so the C++
// reference evaluates device selectors with the scheduler's own compiler, cost limit and error
// texts. reference/dra_cel/cel_selector.h is its only caller; README.md beside it explains why.
package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"sync"
	"unsafe"

	dracel "k8s.io/dynamic-resource-allocation/cel"
)

// Feature bits of dracel_compile, the gates that change what the compiler accepts.
const (
	featureConsumableCapacity = 1 << 0
	featureListTypeAttributes = 1 << 1
)

// caches holds one upstream Cache per feature combination, as the DynamicResources plugin holds
// one per scheduler. Its size only bounds what is kept; a handle keeps its own result alive.
var (
	cachesMu sync.Mutex
	caches   = map[C.int]*dracel.Cache{}
)

func cacheFor(features C.int) *dracel.Cache {
	cachesMu.Lock()
	defer cachesMu.Unlock()
	c := caches[features]
	if c == nil {
		c = dracel.NewCache(64, dracel.Features{
			EnableConsumableCapacity: features&featureConsumableCapacity != 0,
			EnableListTypeAttributes: features&featureListTypeAttributes != 0,
		})
		caches[features] = c
	}
	return c
}

// setError stores msg as a malloc'd C string in *out (the caller frees it with free()).
func setError(out **C.char, msg string) {
	if out != nil {
		*out = C.CString(msg)
	}
}

// dracel_compile compiles a selector expression as the allocator does (Cache.GetOrCompile: stored
// expressions, no cost estimation). Returns a non-zero handle, or 0 with *err set to upstream's
// compile error text (apiservercel.Error's text, e.g. "compilation failed: ERROR: ...").
//
//export dracel_compile
func dracel_compile(expr *C.char, exprLen C.size_t, features C.int, err **C.char) C.uintptr_t {
	expression := C.GoStringN(expr, C.int(exprLen))
	result := cacheFor(features).GetOrCompile(expression)
	if result.Error != nil {
		setError(err, result.Error.Error())
		return 0
	}
	return C.uintptr_t(cgo.NewHandle(result))
}

// dracel_matches evaluates a compiled selector against one device in the compact form of
// device.go. Returns 1 (matches), 0 (does not), or -1 with *err set: a device the form does not
// decode, or upstream's runtime error after EnhanceRuntimeError, as the allocator wraps it.
//
//export dracel_matches
func dracel_matches(handle C.uintptr_t, device *C.char, deviceLen C.size_t, err **C.char) C.int {
	input, decodeErr := decodeDevice(C.GoBytes(unsafe.Pointer(device), C.int(deviceLen)))
	if decodeErr != nil {
		setError(err, fmt.Sprintf("device: %v", decodeErr))
		return -1
	}
	return matches(cgo.Handle(handle).Value().(dracel.CompilationResult), input, err)
}

// dracel_device decodes a device once and keeps it for dracel_matches_device: a device is
// evaluated against many selectors and pods, and decoding its text is half the cost of a match.
// Returns a non-zero handle, or 0 with *err set.
//
//export dracel_device
func dracel_device(device *C.char, deviceLen C.size_t, err **C.char) C.uintptr_t {
	input, decodeErr := decodeDevice(C.GoBytes(unsafe.Pointer(device), C.int(deviceLen)))
	if decodeErr != nil {
		setError(err, fmt.Sprintf("device: %v", decodeErr))
		return 0
	}
	return C.uintptr_t(cgo.NewHandle(input))
}

// dracel_matches_device is dracel_matches for a device from dracel_device.
//
//export dracel_matches_device
func dracel_matches_device(handle, device C.uintptr_t, err **C.char) C.int {
	return matches(cgo.Handle(handle).Value().(dracel.CompilationResult),
		cgo.Handle(device).Value().(dracel.Device), err)
}

func matches(result dracel.CompilationResult, input dracel.Device, err **C.char) C.int {
	ok, _, evalErr := result.DeviceMatches(context.Background(), input)
	if evalErr != nil {
		setError(err, dracel.EnhanceRuntimeError(evalErr).Error())
		return -1
	}
	if ok {
		return 1
	}
	return 0
}

// dracel_free releases a handle from dracel_compile or dracel_device; 0 is ignored.
//
//export dracel_free
func dracel_free(handle C.uintptr_t) {
	if handle != 0 {
		cgo.Handle(handle).Delete()
	}
}

// dracel_module_version returns the version of a module linked into the archive, e.g. "v0.37.2"
// for k8s.io/dynamic-resource-allocation, or "" when it is not linked; malloc'd, the caller frees
// it. Tests assert the pins with it.
//
//export dracel_module_version
func dracel_module_version(path *C.char) *C.char {
	want := C.GoString(path)
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == want {
				return C.CString(m.Version)
			}
		}
	}
	return C.CString("")
}

func main() {}
