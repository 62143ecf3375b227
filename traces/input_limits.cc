#include "traces/input_limits.h"

#include <algorithm>
#include <charconv>

#include "reference/k8s/k8s.pb.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

int64_t* Field(const std::string& name, InputLimits* limits) {
  if (name == "records") return &limits->records;
  if (name == "expanded-objects") return &limits->expanded_objects;
  if (name == "string-bytes") return &limits->string_bytes;
  if (name == "key-bytes") return &limits->key_bytes;
  if (name == "map-entries") return &limits->map_entries;
  if (name == "slice-devices") return &limits->slice_devices;
  if (name == "claim-requests") return &limits->claim_requests;
  if (name == "cel-bytes") return &limits->cel_bytes;
  if (name == "group-pods") return &limits->group_pods;
  if (name == "yaml-depth") return &limits->yaml_depth;
  if (name == "yaml-alias-nodes") return &limits->yaml_alias_nodes;
  return nullptr;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The walk. `path` is the field path so far ("api.pod.metadata"); errors are built only on failure.
class Checker {
 public:
  Checker(const InputLimits& limits, const std::string& where) : limits_(limits), where_(where) {}

  Outcome Check(const Message& message, const std::string& path) {
    const Reflection* reflection = message.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    reflection->ListFields(message, &fields);
    for (const FieldDescriptor* field : fields) {
      const std::string name = path.empty() ? field->json_name() : path + "." + field->json_name();
      Outcome ok = field->is_map()        ? CheckMap(message, *reflection, *field, name)
                   : field->is_repeated() ? CheckRepeated(message, *reflection, *field, name)
                                          : CheckSingular(message, *reflection, *field, name);
      if (!ok) return ok;
    }
    return Outcome::Ok();
  }

 private:
  Outcome CheckString(const std::string& value, const std::string& name, const char* limit_name,
                      int64_t limit) {
    if (static_cast<int64_t>(value.size()) <= limit) return Outcome::Ok();
    return LimitExceeded(where_, "field " + name, static_cast<int64_t>(value.size()), limit_name,
                         limit);
  }

  Outcome CheckSingular(const Message& m, const Reflection& r, const FieldDescriptor& f,
                        const std::string& name) {
    if (f.cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      std::string scratch;
      const std::string& value = r.GetStringReference(m, &f, &scratch);
      if (&f == cel_expression_) {
        if (Outcome ok = CheckString(value, name, "cel-bytes", limits_.cel_bytes); !ok) return ok;
      }
      return CheckString(value, name, "string-bytes", limits_.string_bytes);
    }
    if (f.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) return Check(r.GetMessage(m, &f), name);
    if (&f == gang_min_count_ && r.GetInt32(m, &f) > limits_.group_pods) {
      return LimitExceeded(where_, "field " + name, r.GetInt32(m, &f), "group-pods",
                           limits_.group_pods);
    }
    return Outcome::Ok();
  }

  Outcome CheckRepeated(const Message& m, const Reflection& r, const FieldDescriptor& f,
                        const std::string& name) {
    const int n = r.FieldSize(m, &f);
    if (&f == slice_devices_ && n > limits_.slice_devices)
      return LimitExceeded(where_, "field " + name, n, "slice-devices", limits_.slice_devices);
    if (&f == claim_requests_ && n > limits_.claim_requests)
      return LimitExceeded(where_, "field " + name, n, "claim-requests", limits_.claim_requests);
    for (int i = 0; i < n; ++i) {
      const std::string item = name + "[" + std::to_string(i) + "]";
      if (f.cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        std::string scratch;
        Outcome ok = CheckString(r.GetRepeatedStringReference(m, &f, i, &scratch), item,
                                 "string-bytes", limits_.string_bytes);
        if (!ok) return ok;
      } else if (f.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (Outcome ok = Check(r.GetRepeatedMessage(m, &f, i), item); !ok) return ok;
      }
    }
    return Outcome::Ok();
  }

  // A map is a repeated entry message with fields `key` (1) and `value` (2).
  Outcome CheckMap(const Message& m, const Reflection& r, const FieldDescriptor& f,
                   const std::string& name) {
    const int n = r.FieldSize(m, &f);
    if (n > limits_.map_entries)
      return LimitExceeded(where_, "field " + name, n, "map-entries", limits_.map_entries);
    const FieldDescriptor* key = f.message_type()->map_key();
    const FieldDescriptor* value = f.message_type()->map_value();
    for (int i = 0; i < n; ++i) {
      const Message& entry = r.GetRepeatedMessage(m, &f, i);
      const Reflection* er = entry.GetReflection();
      std::string key_text = "(a non-string key)";
      if (key->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        key_text = er->GetString(entry, key);
        if (Outcome ok = CheckString(key_text, name + " key", "key-bytes", limits_.key_bytes); !ok)
          return ok;
      }
      // Names the entry by a key short enough to print.
      const std::string item = name + "[\"" +
                               (key_text.size() <= 64 ? key_text : key_text.substr(0, 64) + "...") +
                               "\"]";
      if (value->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        std::string scratch;
        Outcome ok = CheckString(er->GetStringReference(entry, value, &scratch), item,
                                 "string-bytes", limits_.string_bytes);
        if (!ok) return ok;
      } else if (value->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (Outcome ok = Check(er->GetMessage(entry, value), item); !ok) return ok;
      }
    }
    return Outcome::Ok();
  }

  const InputLimits& limits_;
  const std::string& where_;
  // The fields the DRA limits apply to (looked up once: a Checker is made per record).
  static inline const FieldDescriptor* const slice_devices_ =
      k8s::ResourceSliceSpec::descriptor()->FindFieldByName("devices");
  static inline const FieldDescriptor* const claim_requests_ =
      k8s::DeviceClaim::descriptor()->FindFieldByName("requests");
  static inline const FieldDescriptor* const cel_expression_ =
      k8s::CELDeviceSelector::descriptor()->FindFieldByName("expression");
  static inline const FieldDescriptor* const gang_min_count_ =
      k8s::GangSchedulingPolicy::descriptor()->FindFieldByName("min_count");
};

}  // namespace

const std::vector<std::string>& InputLimitNames() {
  static const std::vector<std::string> kNames = {
      "records",     "expanded-objects", "string-bytes",    "key-bytes",
      "map-entries", "slice-devices",    "claim-requests",  "cel-bytes",
      "group-pods",  "yaml-depth",       "yaml-alias-nodes"};
  return kNames;
}

k8s::YamlLimits YamlLimitsOf(const InputLimits& limits) {
  return {.depth = limits.yaml_depth, .alias_nodes = limits.yaml_alias_nodes};
}

Outcome ParseInputLimit(const std::string& spec, InputLimits* limits) {
  const size_t eq = spec.find('=');
  const std::string name = spec.substr(0, eq);
  int64_t* field = Field(name, limits);
  if (eq == std::string::npos || field == nullptr) {
    return Error{"--limit " + spec + ": expected NAME=VALUE with NAME one of " +
                 Join(InputLimitNames())};
  }
  const std::string value = spec.substr(eq + 1);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v <= 0) {
    return Error{"--limit " + spec + ": VALUE must be a positive decimal integer below 2^63"};
  }
  *field = v;
  return Outcome::Ok();
}

Outcome ParseInputLimits(const std::vector<std::string>& specs, InputLimits* limits) {
  for (const std::string& spec : specs) {
    if (Outcome ok = ParseInputLimit(spec, limits); !ok) return ok;
  }
  return Outcome::Ok();
}

Error LimitExceeded(const std::string& where, const std::string& what, int64_t actual,
                    const std::string& name, int64_t limit) {
  const char* unit = name == "records"            ? " records"
                     : name == "expanded-objects" ? " objects"
                     : name == "map-entries"      ? " entries"
                     : name == "slice-devices"    ? " devices"
                     : name == "claim-requests"   ? " requests"
                     : name == "group-pods"       ? " pods"
                                                  : " bytes";
  return Error{(where.empty() ? "" : where + ": ") + what + ": " + std::to_string(actual) + unit +
               ", more than the limit " + name + "=" + std::to_string(limit) +
               " (raise it with --limit " + name + "=N)"};
}

Error TooManyRecords(const std::string& where, int64_t limit) {
  return Error{(where.empty() ? "" : where + ": ") + "more than " + std::to_string(limit) +
               " records, the limit records=" + std::to_string(limit) +
               " (raise it with --limit records=N)"};
}

Outcome CheckMessageLimits(const Message& message, const InputLimits& limits,
                           const std::string& where, const std::string& path) {
  return Checker(limits, where).Check(message, path);
}

bool FitsTrivially(const Message& message, size_t bytes, const InputLimits& limits) {
  // A gang's minCount is a varint: no byte count bounds it.
  const Message* event = &message;
  if (message.GetDescriptor() == Record::descriptor()) {
    event = &static_cast<const Record&>(message).api();
  }
  if (event->GetDescriptor() == ApiEvent::descriptor()) {
    const auto& api = static_cast<const ApiEvent&>(*event);
    if (api.has_workload() || api.has_pod_group()) return false;
  }
  // Every device or request takes at least 2 bytes too.
  const int64_t smallest = std::min({limits.string_bytes, limits.key_bytes, limits.cel_bytes});
  const int64_t fewest =
      std::min({limits.map_entries, limits.slice_devices, limits.claim_requests});
  return static_cast<int64_t>(bytes) <= smallest && static_cast<int64_t>(bytes / 2) <= fewest;
}

}  // namespace schedcheck::trace
