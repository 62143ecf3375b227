// JSON helpers the API validators share (api_validation.cc, dra_validation.cc,
// pod_group_validation.cc): reading members of an object as the API server's decoding sees them,
// and the error text every validation failure carries.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_VALIDATION_JSON_H_
#define SCHEDCHECK_TRACES_IMPORTERS_VALIDATION_JSON_H_

#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"

namespace schedcheck::trace::validation_json {

// "<where>: field <field>: <why>".
inline Error FieldError(const std::string& where, const std::string& field,
                        const std::string& why) {
  return Error{where + ": field " + field + ": " + why};
}

// The member `key` of `object` when present and not null, else nullptr.
inline const nlohmann::json* Member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// The member `key` when it is a string, else "".
inline std::string Str(const nlohmann::json& object, const char* key) {
  const nlohmann::json* v = Member(object, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

}  // namespace schedcheck::trace::validation_json

#endif  // SCHEDCHECK_TRACES_IMPORTERS_VALIDATION_JSON_H_
