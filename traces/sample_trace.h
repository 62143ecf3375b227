// A small deterministic sample trace (3 nodes, 3 pods added, one updated, one deleted, queue
// transitions, attempts and bindings) for `schedcheck trace sample`, documentation and tests,
// plus the tiny builders it is made with. Pure functions.
#ifndef SCHEDCHECK_TRACES_SAMPLE_TRACE_H_
#define SCHEDCHECK_TRACES_SAMPLE_TRACE_H_

#include <cstdint>
#include <string>

#include "reference/k8s/k8s.pb.h"
#include "traces/trace.pb.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

// Returns the same trace on every call (header.producer "schedcheck trace sample").
Trace MakeSampleTrace();

// A Ready node with the given allocatable/capacity cpu ("4") and memory ("8Gi"), 110 pods.
k8s::Node MakeNode(const std::string& name, const std::string& cpu, const std::string& memory);

// A pending pod with one container requesting cpu ("500m") and memory ("1Gi").
k8s::Pod MakePod(const std::string& ns, const std::string& name, const std::string& cpu,
                 const std::string& memory);

Record ApiRecord(int64_t time_ns, EventType type, const k8s::Pod& pod);
Record ApiRecord(int64_t time_ns, EventType type, const k8s::Node& node);
Record QueueRecord(int64_t time_ns, const std::string& pod, const std::string& from,
                   const std::string& to, const std::string& cause);
Record BindingRecord(int64_t time_ns, const std::string& pod, const std::string& node);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_SAMPLE_TRACE_H_
