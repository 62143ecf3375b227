#include "reference/api/selectors.h"

#include <algorithm>
#include <charconv>

namespace schedcheck::reference {
namespace {

bool Contains(const google::protobuf::RepeatedPtrField<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

bool LabelRequirementMatches(const k8s::LabelSelectorRequirement& req, const Labels& labels) {
  auto it = labels.find(req.key());
  const std::string& op = req.operator_();
  if (op == "In") return it != labels.end() && Contains(req.values(), it->second);
  if (op == "NotIn") return it == labels.end() || !Contains(req.values(), it->second);
  if (op == "Exists") return it != labels.end();
  if (op == "DoesNotExist") return it == labels.end();
  return false;
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Go's %#v of an invalid requirement's values and an "Invalid value" field error.
std::string Invalid(const std::string& field, const std::string& bad_value,
                    const std::string& detail) {
  return field + ": Invalid value: " + bad_value + ": " + detail;
}

}  // namespace

// The label value regex (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?, length aside.
bool MatchesLabelValueRegex(std::string_view value) {
  bool ok = value.empty() || (IsAlnum(value.front()) && IsAlnum(value.back()));
  for (char c : value) ok = ok && (IsAlnum(c) || c == '-' || c == '_' || c == '.');
  return ok;
}

bool IsLabelValue(std::string_view value) {
  return value.size() <= 63 && MatchesLabelValueRegex(value);
}

namespace {
// validation.MaxLenError's wording: v0.27 "characters", v0.37 "bytes".
std::string MaxLenError(int length, bool reworded_messages) {
  return "must be no more than " + std::to_string(length) +
         (reworded_messages ? " bytes" : " characters");
}
}  // namespace

std::string LabelValueError(std::string_view value, bool reworded_messages) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLenError(63, reworded_messages));
  if (!MatchesLabelValueRegex(value)) {
    errs.push_back(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
        "'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  }
  std::string out;
  for (const std::string& e : errs) out += (out.empty() ? "" : "; ") + e;
  return out;
}

namespace {

// The DNS-1123 subdomain regex [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*:
// dot-separated labels of [-a-z0-9], each starting and ending with [a-z0-9].
bool MatchesDns1123Subdomain(std::string_view value) {
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  size_t start = 0;
  while (true) {
    size_t dot = value.find('.', start);
    std::string_view label =
        value.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

constexpr std::string_view kQualifiedNameRegexError =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

}  // namespace

bool IsValidLabelKey(std::string_view key) {
  std::string_view name = key;
  const size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (name.find('/') != std::string_view::npos || prefix.empty() || prefix.size() > 253 ||
        !MatchesDns1123Subdomain(prefix)) {
      return false;
    }
  }
  return !name.empty() && name.size() <= 63 && MatchesLabelValueRegex(name);
}

std::string LabelKeyError(std::string_view key, bool reworded_messages) {
  std::vector<std::string> errs;
  std::string_view name = key;
  const size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) {
      return (reworded_messages ? "a valid label key " : "a qualified name ") +
             std::string(kQualifiedNameRegexError) +
             " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    }
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > 253) errs.push_back("prefix part " + MaxLenError(253, reworded_messages));
      if (!MatchesDns1123Subdomain(prefix)) {
        errs.push_back(
            "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
      }
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part " + MaxLenError(63, reworded_messages));
  }
  // The name regex is the label value one without its outer "empty is fine".
  if (name.empty() || !MatchesLabelValueRegex(name)) {
    errs.push_back("name part " + std::string(kQualifiedNameRegexError));
  }
  std::string out;
  for (const std::string& e : errs) out += (out.empty() ? "" : "; ") + e;
  return out;
}

bool GoParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  unsigned __int128 magnitude = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    if (magnitude > (static_cast<unsigned __int128>(1) << 63)) return false;
  }
  const unsigned __int128 limit = negative ? (static_cast<unsigned __int128>(1) << 63)
                                           : (static_cast<unsigned __int128>(1) << 63) - 1;
  if (magnitude > limit) return false;
  *out = negative ? static_cast<int64_t>(-static_cast<__int128>(magnitude))
                  : static_cast<int64_t>(magnitude);
  return true;
}

std::string GoQuote(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\a':
          out += "\\a";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\v':
          out += "\\v";
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // A multi-byte UTF-8 sequence is kept as it is (printable); a byte that starts none is
    // escaped, as strconv.Quote does.
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    bool valid = n > 0 && i + n <= s.size();
    for (size_t k = 1; valid && k < n; ++k)
      valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (!valid) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out + "\"";
}

std::string GoStringSlice(const google::protobuf::RepeatedPtrField<std::string>& values) {
  if (values.empty()) return "[]string(nil)";
  std::string out = "[]string{";
  for (int i = 0; i < values.size(); ++i) out += (i ? ", " : "") + GoQuote(values[i]);
  return out + "}";
}

std::string AggregateError(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  for (const std::string& e : errors) {
    if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
  }
  if (unique.empty()) return "";
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return out + "]";
}

std::vector<std::string> NodeSelectorRequirementErrors(const k8s::NodeSelectorRequirement& req,
                                                       const std::string& path,
                                                       bool reworded_messages) {
  std::vector<std::string> errs;
  const std::string& op = req.operator_();
  const std::string values = path + ".values";
  if (op == "In" || op == "NotIn") {
    if (req.values().empty()) {
      errs.push_back(Invalid(values, GoStringSlice(req.values()),
                             "for 'in', 'notin' operators, values set can't be empty"));
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!req.values().empty()) {
      errs.push_back(Invalid(values, GoStringSlice(req.values()),
                             "values set must be empty for exists and does not exist"));
    }
  } else if (op == "Gt" || op == "Lt") {
    if (req.values_size() != 1) {
      errs.push_back(Invalid(values, GoStringSlice(req.values()),
                             "for 'Gt', 'Lt' operators, exactly one value is required"));
    }
    for (int i = 0; i < req.values_size(); ++i) {
      int64_t v = 0;
      if (!GoParseInt64(req.values(i), &v)) {
        errs.push_back(Invalid(values + "[" + std::to_string(i) + "]", GoQuote(req.values(i)),
                               "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    }
  } else {
    // Unknown operators never reach NewRequirement (the API server refuses them anyway).
    return {path + ".operator: Unsupported value: " + GoQuote(op)};
  }
  // labels.NewRequirement validates the key first (validateLabelKey).
  if (std::string key_error = LabelKeyError(req.key(), reworded_messages); !key_error.empty()) {
    errs.insert(errs.begin(), Invalid(path + ".key", GoQuote(req.key()), key_error));
  }
  for (int i = 0; i < req.values_size(); ++i) {
    const std::string msg = LabelValueError(req.values(i), reworded_messages);
    if (!msg.empty()) {
      errs.push_back(Invalid(values + "[" + std::to_string(i) + "][" + req.key() + "]",
                             GoQuote(req.values(i)), msg));
    }
  }
  return errs;
}

bool NodeSelectorRequirementParses(const k8s::NodeSelectorRequirement& req) {
  const std::string& op = req.operator_();
  if (!IsValidLabelKey(req.key())) return false;
  if (op == "In" || op == "NotIn") {
    if (req.values().empty()) return false;
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!req.values().empty()) return false;
  } else if (op == "Gt" || op == "Lt") {
    int64_t v = 0;
    if (req.values_size() != 1 || !GoParseInt64(req.values(0), &v)) return false;
  } else {
    return false;
  }
  for (const std::string& v : req.values()) {
    if (!IsLabelValue(v)) return false;
  }
  return true;
}

bool LabelSelectorValid(const k8s::LabelSelector& selector) {
  for (const auto& req : selector.match_expressions()) {
    const std::string& op = req.operator_();
    if (op == "In" || op == "NotIn") {
      if (req.values().empty()) return false;
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!req.values().empty()) return false;
    } else {
      return false;
    }
  }
  return true;
}

bool LabelSelectorMatches(const k8s::LabelSelector& selector, const Labels& labels) {
  if (!LabelSelectorValid(selector)) return false;
  for (const auto& [key, value] : selector.match_labels()) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const auto& req : selector.match_expressions()) {
    if (!LabelRequirementMatches(req, labels)) return false;
  }
  return true;
}

bool NodeSelectorRequirementMatches(const k8s::NodeSelectorRequirement& req, const Labels& labels) {
  if (!NodeSelectorRequirementParses(req)) return false;
  auto it = labels.find(req.key());
  const std::string& op = req.operator_();
  if (op == "In") {
    return !req.values().empty() && it != labels.end() && Contains(req.values(), it->second);
  }
  if (op == "NotIn") {
    return !req.values().empty() && (it == labels.end() || !Contains(req.values(), it->second));
  }
  if (op == "Exists") return req.values().empty() && it != labels.end();
  if (op == "DoesNotExist") return req.values().empty() && it == labels.end();
  if (op == "Gt" || op == "Lt") {
    int64_t want = 0, have = 0;
    if (req.values_size() != 1 || !GoParseInt64(req.values(0), &want)) return false;
    if (it == labels.end() || !GoParseInt64(it->second, &have)) return false;
    return op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool NodeSelectorTermMatches(const k8s::NodeSelectorTerm& term, const k8s::Node& node) {
  if (term.match_expressions().empty() && term.match_fields().empty()) return false;
  for (const auto& req : term.match_expressions()) {
    if (!NodeSelectorRequirementMatches(req, node.metadata().labels())) return false;
  }
  for (const auto& req : term.match_fields()) {
    // Only metadata.name is a supported field, with In/NotIn and exactly one value.
    if (req.key() != "metadata.name" || req.values_size() != 1) return false;
    if (req.operator_() != "In" && req.operator_() != "NotIn") return false;
    bool equal = node.metadata().name() == req.values(0);
    if (req.operator_() == "In" ? !equal : equal) return false;
  }
  return true;
}

bool NodeSelectorMatches(const k8s::NodeSelector& selector, const k8s::Node& node) {
  for (const auto& term : selector.node_selector_terms()) {
    if (NodeSelectorTermMatches(term, node)) return true;
  }
  return false;
}

bool PodMatchesRequiredNodeAffinity(const k8s::Pod& pod, const k8s::Node& node) {
  const auto& labels = node.metadata().labels();
  for (const auto& [key, value] : pod.spec().node_selector()) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  const k8s::PodSpec& spec = pod.spec();
  if (spec.has_affinity() && spec.affinity().has_node_affinity() &&
      spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    return NodeSelectorMatches(
        spec.affinity().node_affinity().required_during_scheduling_ignored_during_execution(),
        node);
  }
  return true;
}

bool SemanticEqualMaps(const Labels& a, const Labels& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a) {
    auto it = b.find(key);
    if (it == b.end() || it->second != value) return false;
  }
  return true;
}

bool TolerationToleratesTaint(const k8s::Toleration& toleration, const k8s::Taint& taint) {
  if (!toleration.effect().empty() && toleration.effect() != taint.effect()) return false;
  if (!toleration.key().empty() && toleration.key() != taint.key()) return false;
  const std::string& op = toleration.operator_();
  if (op == "Exists") return true;
  if (op.empty() || op == "Equal") return toleration.value() == taint.value();
  return false;
}

bool TolerationsTolerateTaint(
    const google::protobuf::RepeatedPtrField<k8s::Toleration>& tolerations,
    const k8s::Taint& taint) {
  for (const auto& t : tolerations) {
    if (TolerationToleratesTaint(t, taint)) return true;
  }
  return false;
}

}  // namespace schedcheck::reference
