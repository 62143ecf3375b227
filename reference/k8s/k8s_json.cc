#include "reference/k8s/k8s_json.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver_util.h>

#include "reference/k8s/dra_normalize.h"
#include "reference/k8s/json_to_message.h"
#include "reference/k8s/serialize_deterministic.h"

#include "reference/base/input_files.h"

namespace schedcheck::k8s {
namespace {

bool IsYamlNull(const std::string& s) {
  return s == "~" || s == "null" || s == "Null" || s == "NULL";
}

bool IsYamlBool(const std::string& s, bool* value) {
  if (s == "true" || s == "True" || s == "TRUE") return *value = true, true;
  if (s == "false" || s == "False" || s == "FALSE") return *value = false, true;
  return false;
}

// YAML 1.2 core schema integers and floats (decimal only, plus 0x / 0o for completeness).
bool IsYamlInt(const std::string& s, int64_t* value) {
  static const std::regex kInt("[-+]?[0-9]+");
  // No int64 has more digits; and std::regex recurses per character (a long scalar would
  // exhaust the stack).
  if (s.size() > 64 || !std::regex_match(s, kInt)) return false;
  try {
    *value = std::stoll(s);
  } catch (...) {
    return false;
  }
  return true;
}

bool IsYamlFloat(const std::string& s, double* value) {
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (s.size() > 64 || !std::regex_match(s, kFloat)) return false;
  try {
    *value = std::stod(s);  // out_of_range for 1e999 or 1e-999: not a number then
  } catch (const std::exception&) {
    return false;
  }
  return std::isfinite(*value);
}

nlohmann::json YamlToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() == "!") return s;  // quoted: always a string
      bool b;
      int64_t i;
      double d;
      if (IsYamlNull(s)) return nullptr;
      if (IsYamlBool(s, &b)) return b;
      if (IsYamlInt(s, &i)) return i;
      if (IsYamlFloat(s, &d)) return d;
      return s;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : node) out.push_back(YamlToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& kv : node) out[kv.first.as<std::string>()] = YamlToJson(kv.second);
      return out;
    }
  }
  return nullptr;
}

// Quantities written as bare YAML/JSON numbers ("cpu: 2") become the strings Kubernetes uses.
void StringifyQuantities(nlohmann::json& list) {
  if (!list.is_object()) return;
  for (auto& [key, value] : list.items()) {
    if (value.is_number_integer()) {
      value = std::to_string(value.get<int64_t>());
    } else if (value.is_number_float()) {
      std::ostringstream os;
      os << value.get<double>();
      value = os.str();
    }
  }
}

void NormalizeContainer(nlohmann::json& c) {
  if (!c.is_object() || !c.contains("resources")) return;
  auto& r = c["resources"];
  if (!r.is_object()) return;
  if (r.contains("requests")) StringifyQuantities(r["requests"]);
  if (r.contains("limits")) StringifyQuantities(r["limits"]);
}

// Label values and other string maps may arrive as YAML numbers or booleans ("tier: 1").
void StringifyMapValues(nlohmann::json& map) {
  if (!map.is_object()) return;
  for (auto& [key, value] : map.items()) {
    if (value.is_number() || value.is_boolean()) value = value.dump();
  }
}

void NormalizeMetadata(nlohmann::json& obj) {
  if (!obj.is_object() || !obj.contains("metadata") || !obj["metadata"].is_object()) return;
  auto& meta = obj["metadata"];
  if (meta.contains("labels")) StringifyMapValues(meta["labels"]);
  if (meta.contains("annotations")) StringifyMapValues(meta["annotations"]);
}

// Service / ReplicationController spec.selector (a map) and ReplicaSet / StatefulSet
// spec.selector.matchLabels: YAML plain scalars such as `tier: 1` are label values (strings).
void NormalizeSelectorObject(nlohmann::json& obj) {
  NormalizeMetadata(obj);
  if (!obj.contains("spec") || !obj["spec"].is_object()) return;
  auto& spec = obj["spec"];
  if (!spec.contains("selector") || !spec["selector"].is_object()) return;
  auto& selector = spec["selector"];
  if (selector.contains("matchLabels") || selector.contains("matchExpressions")) {
    if (selector.contains("matchLabels")) StringifyMapValues(selector["matchLabels"]);
  } else {
    StringifyMapValues(selector);
  }
}

// Looks up obj[key] when obj is an object holding it; null otherwise.
nlohmann::json* Member(nlohmann::json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return nullptr;
  return &obj[key];
}

// One quantity written as a bare number ("capacity: 10") becomes its string.
void StringifyQuantity(nlohmann::json* value) {
  if (value == nullptr) return;
  nlohmann::json wrapper = {{"q", *value}};
  StringifyQuantities(wrapper);
  *value = wrapper["q"];
}

// PersistentVolume spec.capacity; PersistentVolumeClaim spec.resources and status.capacity (also
// inside an ephemeral volume's claim template).
void NormalizeClaimSpec(nlohmann::json* spec) {
  if (spec != nullptr) NormalizeContainer(*spec);  // spec.resources.requests / limits
}

void NormalizePersistentVolume(nlohmann::json& pv) {
  NormalizeMetadata(pv);
  if (nlohmann::json* spec = Member(pv, "spec")) {
    if (nlohmann::json* capacity = Member(*spec, "capacity")) StringifyQuantities(*capacity);
  }
}

void NormalizePersistentVolumeClaim(nlohmann::json& pvc) {
  NormalizeMetadata(pvc);
  NormalizeClaimSpec(Member(pvc, "spec"));
  if (nlohmann::json* status = Member(pvc, "status")) {
    if (nlohmann::json* capacity = Member(*status, "capacity")) StringifyQuantities(*capacity);
  }
}

void NormalizeStorageClass(nlohmann::json& sc) {
  NormalizeMetadata(sc);
  if (nlohmann::json* parameters = Member(sc, "parameters")) StringifyMapValues(*parameters);
}

void NormalizeCSIStorageCapacity(nlohmann::json& capacity) {
  NormalizeMetadata(capacity);
  StringifyQuantity(Member(capacity, "capacity"));
  StringifyQuantity(Member(capacity, "maximumVolumeSize"));
  if (nlohmann::json* topology = Member(capacity, "nodeTopology")) {
    if (nlohmann::json* labels = Member(*topology, "matchLabels")) StringifyMapValues(*labels);
  }
}

void NormalizePod(nlohmann::json& pod) {
  NormalizeMetadata(pod);
  if (!pod.contains("spec") || !pod["spec"].is_object()) return;
  auto& spec = pod["spec"];
  for (const char* list : {"containers", "initContainers"}) {
    if (spec.contains(list) && spec[list].is_array()) {
      for (auto& c : spec[list]) NormalizeContainer(c);
    }
  }
  if (spec.contains("overhead")) StringifyQuantities(spec["overhead"]);
  if (spec.contains("nodeSelector")) StringifyMapValues(spec["nodeSelector"]);
  NormalizeContainer(spec);  // pod-level spec.resources
  if (nlohmann::json* volumes = Member(spec, "volumes");
      volumes != nullptr && volumes->is_array()) {
    for (auto& volume : *volumes) {
      nlohmann::json* ephemeral = Member(volume, "ephemeral");
      nlohmann::json* tmpl = ephemeral ? Member(*ephemeral, "volumeClaimTemplate") : nullptr;
      if (tmpl != nullptr) NormalizeClaimSpec(Member(*tmpl, "spec"));
    }
  }
}

void NormalizeNode(nlohmann::json& node) {
  NormalizeMetadata(node);
  if (!node.contains("status") || !node["status"].is_object()) return;
  auto& status = node["status"];
  if (status.contains("capacity")) StringifyQuantities(status["capacity"]);
  if (status.contains("allocatable")) StringifyQuantities(status["allocatable"]);
}

template <typename Message>
Result<Message> Decode(const nlohmann::json& given, const std::string& where,
                       void (*normalize)(nlohmann::json&)) {
  if (!given.is_object())
    return Error{where + ": expected an object, got " + std::string(given.type_name())};
  Message out;
  // The common shapes, without copying the object or the text round trip. Normalizing only turns
  // numbers and booleans inside string maps into strings, and JsonToMessage declines any string
  // map holding one, so what it decodes here is what it would decode after normalizing.
  if (JsonToMessage(given, &out)) return out;
  out.Clear();
  nlohmann::json json = given;
  if (normalize) normalize(json);
  if (JsonToMessage(json, &out)) return out;
  out.Clear();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  std::string text;
  try {
    text = json.dump();
  } catch (const nlohmann::json::exception& e) {  // a YAML string that is not UTF-8
    return Error{where + ": not valid UTF-8 text: " + e.what()};
  }
  auto status = google::protobuf::util::JsonStringToMessage(text, &out, options);
  if (!status.ok()) return Error{where + ": " + std::string(status.message())};
  return out;
}

}  // namespace

namespace {

// A first pass over the YAML events that enforces the limits of yaml_limits.h before yaml-cpp
// builds any node: documents (yaml-cpp 0.7's LoadAll never ends on some inputs, e.g. a lone ",";
// every real document consumes at least one byte), nesting depth, and the nodes aliases stand for
// (a "billion laughs" file is a few hundred bytes).
class YamlLimitChecker : public YAML::EventHandler {
 public:
  YamlLimitChecker(size_t max_documents, const YamlLimits& limits)
      : max_documents_(max_documents), limits_(limits) {}

  // Parses the whole stream; "" or what was exceeded.
  std::string Check(std::istream& in) {
    YAML::Parser parser(in);
    try {
      while (error_.empty() && parser.HandleNextDocument(*this)) {
        if (++documents_ > max_documents_) {
          return "the YAML parser made no progress after " + std::to_string(max_documents_) +
                 " documents (a stray flow indicator such as ',' at the top level?)";
        }
      }
    } catch (const YAML::DeepRecursion& e) {
      // yaml-cpp's own guard (about 500 levels) ends the document it is in. Past our limit that
      // is only where the parse stopped: the limit's message, set when it was crossed, stands.
      if (error_.empty()) {
        error_ =
            At(e.mark) + "YAML nesting deeper than " + std::to_string(stack_.size() - 1) +
            " levels, yaml-cpp's own limit (the limit yaml-depth=" + std::to_string(limits_.depth) +
            " is above it)";
      }
    } catch (const YAML::Exception&) {
      if (error_.empty()) throw;  // a syntax error, reported by the caller
    }
    return error_;
  }

  void OnDocumentStart(const YAML::Mark&) override { stack_.assign(1, Frame{}); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { Leaf(mark, anchor, 1); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    // An alias inside the node its anchor names (`c: &c [*c]`) makes yaml-cpp build a cyclic node,
    // which YamlToJson would expand without end (scheduler_config_fuzzer finding).
    for (const Frame& open : stack_) {
      if (anchor != 0 && open.anchor == anchor && error_.empty()) {
        error_ = At(mark) + "recursive YAML alias: it refers to a node that contains it";
      }
    }
    auto it = sizes_.find(anchor);
    uint64_t nodes = it == sizes_.end() ? 1 : it->second;
    alias_nodes_ += nodes;
    if (alias_nodes_ > static_cast<uint64_t>(limits_.alias_nodes) && error_.empty()) {
      error_ = At(mark) + "aliases expand to more than " + std::to_string(limits_.alias_nodes) +
               " YAML nodes, " + Limit("yaml-alias-nodes", limits_.alias_nodes);
    }
    Leaf(mark, 0, nodes);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    Leaf(mark, anchor, 1);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(mark, anchor);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(mark, anchor);
  }
  void OnMapEnd() override { Close(); }

 private:
  struct Frame {
    YAML::anchor_t anchor = 0;
    uint64_t nodes = 0;
  };
  // The wording of traces/input_limits.h's LimitExceeded, which reference/ cannot include.
  static std::string Limit(const std::string& name, int64_t value) {
    return "the limit " + name + "=" + std::to_string(value) + " (raise it with --limit " + name +
           "=N)";
  }
  static std::string At(const YAML::Mark& mark) {
    return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1) +
           ": ";
  }
  void Add([[maybe_unused]] const YAML::Mark& mark, uint64_t nodes) {
    if (stack_.empty()) stack_.assign(1, Frame{});
    // Saturating: sizes only matter up to the limit.
    stack_.back().nodes = std::min<uint64_t>(stack_.back().nodes + nodes, uint64_t{1} << 62);
  }
  void Leaf(const YAML::Mark& mark, YAML::anchor_t anchor, uint64_t nodes) {
    if (anchor) sizes_[anchor] = nodes;
    Add(mark, nodes);
  }
  void Open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    // stack_[0] is the document itself: stack_.size() collections are open counting this one.
    if (static_cast<int64_t>(stack_.size()) > limits_.depth && error_.empty()) {
      error_ = At(mark) + "YAML nesting deeper than " + std::to_string(limits_.depth) +
               " levels, " + Limit("yaml-depth", limits_.depth);
    }
    marks_.push_back(mark);
    stack_.push_back(Frame{anchor, 1});
  }
  void Close() {
    if (stack_.size() < 2) return;
    Frame f = stack_.back();
    stack_.pop_back();
    YAML::Mark mark = marks_.back();
    marks_.pop_back();
    if (f.anchor) sizes_[f.anchor] = f.nodes;
    Add(mark, f.nodes);
  }

  size_t max_documents_;
  YamlLimits limits_;
  size_t documents_ = 0;
  uint64_t alias_nodes_ = 0;
  std::vector<Frame> stack_;
  std::vector<YAML::Mark> marks_;
  std::map<YAML::anchor_t, uint64_t> sizes_;
  std::string error_;
};

}  // namespace

Result<std::vector<Document>> ParseYamlDocuments(std::string_view text, const std::string& source,
                                                 const YamlLimits& limits) {
  std::vector<Document> docs;
  try {
    std::istringstream in{std::string(text)};
    if (std::string why = YamlLimitChecker(text.size() + 1, limits).Check(in); !why.empty()) {
      return Error{source + ": " + why};
    }
    std::vector<YAML::Node> nodes = YAML::LoadAll(std::string(text));
    for (const YAML::Node& node : nodes) {
      if (node.IsNull()) continue;  // empty document between separators
      docs.push_back({YamlToJson(node), node.Mark().line + 1});
    }
  } catch (const YAML::Exception& e) {
    return Error{source + ": line " + std::to_string(e.mark.line + 1) + ", column " +
                 std::to_string(e.mark.column + 1) + ": YAML: " + e.msg};
  }
  return docs;
}

namespace {

// FieldLine's walk: `rest` of the path below `node`, whose key or item is on `line`.
int FieldLine(const YAML::Node& node, std::string_view rest, int line) {
  if (!rest.empty() && rest[0] == '.') rest.remove_prefix(1);
  if (rest.empty()) return line;
  if (rest[0] == '[') {
    size_t close = rest.find(']');
    size_t index = 0;
    if (close == std::string_view::npos || !node.IsSequence()) return line;
    auto [end, ec] = std::from_chars(rest.data() + 1, rest.data() + close, index);
    if (ec != std::errc() || end != rest.data() + close || index >= node.size()) return line;
    const YAML::Node item = node[index];
    return FieldLine(item, rest.substr(close + 1), item.Mark().line + 1);
  }
  if (!node.IsMap()) return line;
  for (const auto& entry : node) {
    if (!entry.first.IsScalar()) continue;
    const std::string& key = entry.first.Scalar();
    // A key may hold '.' itself: it matches up to the end of the path or of a path element.
    if (rest.substr(0, key.size()) != key ||
        (rest.size() > key.size() && rest[key.size()] != '.' && rest[key.size()] != '['))
      continue;
    return FieldLine(entry.second, rest.substr(key.size()), entry.first.Mark().line + 1);
  }
  return line;
}

}  // namespace

int YamlFieldLine(std::string_view text, std::string_view path) {
  try {
    for (const YAML::Node& doc : YAML::LoadAll(std::string(text))) {
      if (!doc.IsNull()) return FieldLine(doc, path, 0);
    }
  } catch (const YAML::Exception&) {
  }
  return 0;
}

size_t ScanJsonNesting(std::string_view text, size_t begin, size_t* too_deep_at) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth && *too_deep_at == std::string_view::npos) *too_deep_at = i;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

size_t JsonTooDeepAt(std::string_view text) {
  // One value per text: past its end the parser stops with an error before building anything.
  size_t too_deep_at = std::string_view::npos;
  ScanJsonNesting(text, 0, &too_deep_at);
  return too_deep_at;
}

Error JsonTooDeep(const std::string& where, size_t at) {
  return Error{where + ": byte " + std::to_string(at + 1) + ": JSON: nested deeper than " +
               std::to_string(kMaxJsonDepth) + " levels (kMaxJsonDepth)"};
}

Result<nlohmann::json> ParseJson(std::string_view text, const std::string& source) {
  if (size_t at = JsonTooDeepAt(text); at != std::string_view::npos) return JsonTooDeep(source, at);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{source + ": byte " + std::to_string(e.byte) + ": JSON: " + e.what()};
  } catch (const nlohmann::json::exception& e) {  // out_of_range: a number beyond double (1e999)
    return Error{source + ": JSON: " + e.what()};
  }
}

Result<std::vector<Document>> ReadDocumentsFile(const std::string& path, const YamlLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".jsonl")) {
    std::vector<Document> docs;
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      Result<nlohmann::json> j = ParseJson(line, path + ": line " + std::to_string(number));
      if (!j.ok()) return j.error();
      docs.push_back({std::move(*j), number});
    }
    return docs;
  }
  if (ends_with(".json")) {
    Result<nlohmann::json> j = ParseJson(text, path);
    if (!j.ok()) return j.error();
    return std::vector<Document>{{std::move(*j), 1}};
  }
  if (ends_with(".yaml") || ends_with(".yml")) return ParseYamlDocuments(text, path, limits);
  return Error{path + ": unknown file type (want .yaml, .yml, .json or .jsonl)"};
}

Result<std::vector<std::string>> ListDocumentFiles(const std::vector<std::string>& paths) {
  return ListInputFiles(paths, {".json", ".jsonl", ".yaml", ".yml"});
}

Result<k8s::Pod> PodFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::Pod>(json, where, &NormalizePod);
}
Result<k8s::Node> NodeFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::Node>(json, where, &NormalizeNode);
}
Result<k8s::Namespace> NamespaceFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::Namespace>(json, where, &NormalizeMetadata);
}
Result<k8s::PriorityClass> PriorityClassFromJson(const nlohmann::json& json,
                                                 const std::string& where) {
  return Decode<k8s::PriorityClass>(json, where, &NormalizeMetadata);
}
Result<k8s::PodDisruptionBudget> PdbFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::PodDisruptionBudget>(json, where, &NormalizeMetadata);
}
Result<k8s::Service> ServiceFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::Service>(json, where, &NormalizeSelectorObject);
}
Result<k8s::ReplicationController> ReplicationControllerFromJson(const nlohmann::json& json,
                                                                 const std::string& where) {
  return Decode<k8s::ReplicationController>(json, where, &NormalizeSelectorObject);
}
Result<k8s::ReplicaSet> ReplicaSetFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::ReplicaSet>(json, where, &NormalizeSelectorObject);
}
Result<k8s::StatefulSet> StatefulSetFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::StatefulSet>(json, where, &NormalizeSelectorObject);
}

Result<k8s::PersistentVolume> PersistentVolumeFromJson(const nlohmann::json& json,
                                                       const std::string& where) {
  return Decode<k8s::PersistentVolume>(json, where, &NormalizePersistentVolume);
}
Result<k8s::PersistentVolumeClaim> PersistentVolumeClaimFromJson(const nlohmann::json& json,
                                                                 const std::string& where) {
  return Decode<k8s::PersistentVolumeClaim>(json, where, &NormalizePersistentVolumeClaim);
}
Result<k8s::StorageClass> StorageClassFromJson(const nlohmann::json& json,
                                               const std::string& where) {
  return Decode<k8s::StorageClass>(json, where, &NormalizeStorageClass);
}
Result<k8s::CSINode> CSINodeFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::CSINode>(json, where, &NormalizeMetadata);
}
Result<k8s::CSIDriver> CSIDriverFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::CSIDriver>(json, where, &NormalizeMetadata);
}
Result<k8s::CSIStorageCapacity> CSIStorageCapacityFromJson(const nlohmann::json& json,
                                                           const std::string& where) {
  return Decode<k8s::CSIStorageCapacity>(json, where, &NormalizeCSIStorageCapacity);
}

Result<k8s::ResourceClaim> ResourceClaimFromJson(const nlohmann::json& json,
                                                 const std::string& where) {
  return Decode<k8s::ResourceClaim>(json, where, &NormalizeResourceClaim);
}
Result<k8s::ResourceClaimTemplate> ResourceClaimTemplateFromJson(const nlohmann::json& json,
                                                                 const std::string& where) {
  return Decode<k8s::ResourceClaimTemplate>(json, where, &NormalizeResourceClaimTemplate);
}
Result<k8s::ResourceSlice> ResourceSliceFromJson(const nlohmann::json& json,
                                                 const std::string& where) {
  return Decode<k8s::ResourceSlice>(json, where, &NormalizeResourceSlice);
}
Result<k8s::DeviceClass> DeviceClassFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::DeviceClass>(json, where, &NormalizeDraMetadataOnly);
}
Result<k8s::DeviceTaintRule> DeviceTaintRuleFromJson(const nlohmann::json& json,
                                                     const std::string& where) {
  return Decode<k8s::DeviceTaintRule>(json, where, &NormalizeDraMetadataOnly);
}

Result<k8s::Workload> WorkloadFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::Workload>(json, where, &NormalizeMetadata);
}
Result<k8s::PodGroup> PodGroupFromJson(const nlohmann::json& json, const std::string& where) {
  return Decode<k8s::PodGroup>(json, where, &NormalizeMetadata);
}

std::string ToJson(const google::protobuf::Message& message) {
  // Converting the deterministic binary form (instead of MessageToJsonString) prints map entries
  // sorted by key, so equal messages always print equal text.
  namespace pb = google::protobuf;
  static constexpr char kUrlPrefix[] = "type.googleapis.com";
  static pb::util::TypeResolver* const resolver =
      pb::util::NewTypeResolverForDescriptorPool(kUrlPrefix, pb::DescriptorPool::generated_pool());
  pb::util::JsonPrintOptions options;
  std::string json;
  pb::util::Status status = pb::util::BinaryToJsonString(
      resolver, std::string(kUrlPrefix) + "/" + message.GetDescriptor()->full_name(),
      SerializeDeterministic(message), &json, options);
  return status.ok() ? json : std::string();
}

}  // namespace schedcheck::k8s
