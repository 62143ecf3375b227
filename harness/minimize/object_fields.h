// Internal to harness/minimize: the removable fields of one API object (trace_units.h, FieldUnit)
// and their removal. Map keys are listed sorted (protobuf maps have no stable order).
#ifndef SCHEDCHECK_HARNESS_MINIMIZE_OBJECT_FIELDS_H_
#define SCHEDCHECK_HARNESS_MINIMIZE_OBJECT_FIELDS_H_

#include <string>
#include <vector>

#include "harness/minimize/trace_units.h"
#include "traces/trace.pb.h"

namespace schedcheck::minimize {

// The event's object's metadata (null when it has none) and kind ("Pod", "Node", ... "?").
const k8s::ObjectMeta* MetadataOf(const trace::ApiEvent& event);
std::string KindOf(const trace::ApiEvent& event);

// The fields of the event's object, FieldUnit.object set to `object`, in a fixed order.
std::vector<FieldUnit> FieldsOf(const trace::ApiEvent& event, const std::string& object);

// Takes `field` out of the event's object; nothing when the object lacks it.
void RemoveField(const FieldUnit& field, trace::ApiEvent* event);

}  // namespace schedcheck::minimize

#endif  // SCHEDCHECK_HARNESS_MINIMIZE_OBJECT_FIELDS_H_
