// A direct decoder from a parsed JSON tree into a k8s.proto message, for the shapes Kubernetes
// objects take: strings, integers, booleans, objects, arrays and string maps, where protobuf's own
// JSON parser (JsonStringToMessage, unknown fields ignored) would give the same message. For
// anything else (a null in a list, a number where a string belongs, a non-ASCII string, a float for
// an integer, a field named twice, ...) it declines, and the caller runs protobuf's parser, which
// decides and words the error. It saves the round trip through text (dump, then parse again) that
// dominates importing a large capture.
#ifndef SCHEDCHECK_REFERENCE_K8S_JSON_TO_MESSAGE_H_
#define SCHEDCHECK_REFERENCE_K8S_JSON_TO_MESSAGE_H_

#include <string>

#include <nlohmann/json.hpp>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace schedcheck::k8s {

// The field of the k8s.proto message type `type` whose JSON name is `name`; null when there is
// none (or `type` is not a k8s.proto message).
const google::protobuf::FieldDescriptor* FieldOfJsonName(const google::protobuf::Descriptor* type,
                                                         const std::string& name);

// Fills the empty message `out` from the JSON object `json`; false when it declines (then `out` is
// left in an unspecified state: clear it before using it again).
bool JsonToMessage(const nlohmann::json& json, google::protobuf::Message* out);

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_JSON_TO_MESSAGE_H_
