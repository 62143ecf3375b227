#include "reference/k8s/json_to_message.h"

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/struct.pb.h"
#include "reference/k8s/json_number.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::k8s {
namespace {

namespace pb = google::protobuf;
using Json = nlohmann::json;

// The fields of one message type by their JSON names.
using FieldsByName = std::unordered_map<std::string, const pb::FieldDescriptor*>;

const FieldsByName& FieldsOf(const pb::Descriptor* type) {
  // Built once for every message type of the file (thread-safe static initialization); the
  // descriptors of generated code live as long as the program.
  static const auto* const tables = [] {
    auto* out = new std::unordered_map<const pb::Descriptor*, FieldsByName>();
    std::vector<const pb::Descriptor*> pending;
    const pb::FileDescriptor* file = Pod::descriptor()->file();
    for (int i = 0; i < file->message_type_count(); ++i) pending.push_back(file->message_type(i));
    while (!pending.empty()) {
      const pb::Descriptor* d = pending.back();
      pending.pop_back();
      FieldsByName& fields = (*out)[d];
      for (int i = 0; i < d->field_count(); ++i)
        fields.emplace(d->field(i)->json_name(), d->field(i));
      for (int i = 0; i < d->nested_type_count(); ++i) pending.push_back(d->nested_type(i));
    }
    return out;
  }();
  static const FieldsByName kNone;
  auto it = tables->find(type);
  return it == tables->end() ? kNone : it->second;
}

bool Ascii(const std::string& s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

// True when the key and every string and key inside `v` are ASCII.
bool AsciiThroughout(const std::string& key, const Json& v) {
  if (!Ascii(key)) return false;
  if (v.is_string()) return Ascii(v.get_ref<const std::string&>());
  if (v.is_object()) {
    for (const auto& [k, child] : v.items()) {
      if (!AsciiThroughout(k, child)) return false;
    }
  } else if (v.is_array()) {
    for (const Json& child : v) {
      if (!AsciiThroughout("", child)) return false;
    }
  }
  return true;
}

bool Decode(const Json& json, pb::Message* out);

// google.protobuf.Value from a string, an integer or a boolean (what int-or-string fields hold).
bool DecodeValue(const Json& v, pb::Value* out) {
  if (v.is_string() && Ascii(v.get_ref<const std::string&>())) {
    out->set_string_value(v.get<std::string>());
    return true;
  }
  int64_t n = 0;
  if (IntegerIn(v, -(int64_t{1} << 53), int64_t{1} << 53, &n)) {  // exact as a double
    out->set_number_value(static_cast<double>(n));
    return true;
  }
  if (v.is_boolean()) {
    out->set_bool_value(v.get<bool>());
    return true;
  }
  return false;
}

// One singular value, or one element of a repeated field (`index` < 0: singular).
bool DecodeScalarOrMessage(const Json& v, const pb::FieldDescriptor* field, pb::Message* out) {
  const pb::Reflection& r = *out->GetReflection();
  const bool repeated = field->is_repeated();
  int64_t n = 0;
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING:
      if (field->type() != pb::FieldDescriptor::TYPE_STRING || !v.is_string() ||
          !Ascii(v.get_ref<const std::string&>())) {
        return false;
      }
      repeated ? r.AddString(out, field, v.get<std::string>())
               : r.SetString(out, field, v.get<std::string>());
      return true;
    case pb::FieldDescriptor::CPPTYPE_INT32:
      if (!IntegerIn(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                     &n)) {
        return false;
      }
      repeated ? r.AddInt32(out, field, static_cast<int32_t>(n))
               : r.SetInt32(out, field, static_cast<int32_t>(n));
      return true;
    case pb::FieldDescriptor::CPPTYPE_INT64:
      if (!IntegerIn(v, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                     &n)) {
        return false;
      }
      repeated ? r.AddInt64(out, field, n) : r.SetInt64(out, field, n);
      return true;
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      if (!v.is_boolean()) return false;
      repeated ? r.AddBool(out, field, v.get<bool>()) : r.SetBool(out, field, v.get<bool>());
      return true;
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: {
      pb::Message* child = repeated ? r.AddMessage(out, field) : r.MutableMessage(out, field);
      if (field->message_type() == pb::Value::descriptor()) {
        return DecodeValue(v, static_cast<pb::Value*>(child));
      }
      return v.is_object() && Decode(v, child);
    }
    default:  // floats, enums, unsigned: not in k8s.proto; let protobuf decide
      return false;
  }
}

// Appends a varint (the wire format's base-128 integer).
void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// A map<string, string> from an object of strings, as wire-format entries appended to `wire`.
// The caller merges them into the message: maps parsed from the wire are held as maps only,
// while maps filled through reflection keep a second copy of every entry once read as a map.
bool EncodeStringMap(const Json& v, const pb::FieldDescriptor* field, std::string* wire) {
  const pb::Descriptor* entry = field->message_type();
  if (!v.is_object() || entry->map_key()->type() != pb::FieldDescriptor::TYPE_STRING ||
      entry->map_value()->type() != pb::FieldDescriptor::TYPE_STRING) {
    return false;
  }
  std::string bytes;
  for (const auto& [k, element] : v.items()) {
    if (!element.is_string()) return false;
    const std::string& value = element.get_ref<const std::string&>();
    if (!Ascii(k) || !Ascii(value)) return false;
    bytes.clear();
    bytes.push_back('\x0a');  // field 1 (key), length-delimited
    AppendVarint(k.size(), &bytes);
    bytes += k;
    bytes.push_back('\x12');  // field 2 (value), length-delimited
    AppendVarint(value.size(), &bytes);
    bytes += value;
    AppendVarint((static_cast<uint64_t>(field->number()) << 3) | 2, wire);
    AppendVarint(bytes.size(), wire);
    *wire += bytes;
  }
  return true;
}

bool Decode(const Json& json, pb::Message* out) {
  const FieldsByName& fields = FieldsOf(out->GetDescriptor());
  if (fields.empty()) return false;  // not a k8s.proto type
  std::vector<const pb::FieldDescriptor*> seen;
  std::string map_entries;  // wire format, merged at the end
  for (const auto& [name, v] : json.items()) {
    // protobuf's parser accepts a field under its JSON name or its name in the .proto file.
    auto it = fields.find(name);
    const pb::FieldDescriptor* field =
        it != fields.end() ? it->second : out->GetDescriptor()->FindFieldByName(name);
    if (field == nullptr) {
      // Ignored, as protobuf's parser ignores unknown fields; but a caller's dump of the object
      // rejects text that is not UTF-8 anywhere in it, so a non-ASCII byte is left to that path.
      if (!AsciiThroughout(name, v)) return false;
      continue;
    }
    for (const pb::FieldDescriptor* s : seen) {
      if (s == field) return false;  // under both of its names
    }
    seen.push_back(field);
    if (v.is_null()) {
      if (field->is_repeated() || field->message_type() == pb::Value::descriptor()) return false;
      continue;  // null is the default value
    }
    if (field->is_map()) {
      if (!EncodeStringMap(v, field, &map_entries)) return false;
    } else if (field->is_repeated()) {
      if (!v.is_array()) return false;
      for (const Json& element : v) {
        if (element.is_null() || !DecodeScalarOrMessage(element, field, out)) return false;
      }
    } else if (!DecodeScalarOrMessage(v, field, out)) {
      return false;
    }
  }
  return map_entries.empty() || out->MergeFromString(map_entries);
}

}  // namespace

const google::protobuf::FieldDescriptor* FieldOfJsonName(const google::protobuf::Descriptor* type,
                                                         const std::string& name) {
  const FieldsByName& fields = FieldsOf(type);
  auto it = fields.find(name);
  return it == fields.end() ? nullptr : it->second;
}

bool JsonToMessage(const nlohmann::json& json, google::protobuf::Message* out) {
  return json.is_object() && Decode(json, out);
}

}  // namespace schedcheck::k8s
