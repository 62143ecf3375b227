// The fields of one op of a `kind: queue` case, read checked (both compat levels' runners).
#ifndef SCHEDCHECK_HARNESS_CHECK_QUEUE_OP_FIELDS_H_
#define SCHEDCHECK_HARNESS_CHECK_QUEUE_OP_FIELDS_H_

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/check/run_queue_config.h"
#include "reference/base/result.h"
#include "reference/k8s/json_number.h"

namespace schedcheck::check {

// An op's fields, read checked: every error names the op and the field ("ops[3].seconds: ...").
// Errors are bad input (the case is malformed); expectation mismatches are strings.
class OpFields {
 public:
  OpFields(const nlohmann::json& op, std::string at) : op_(op), at_(std::move(at)) {}

  std::string Field(const char* name) const { return at_ + "." + name; }
  bool Has(const char* name) const { return op_.contains(name); }
  const nlohmann::json& operator[](const char* name) const { return op_[name]; }

  Result<int64_t> Integer(const char* name, int64_t lo, int64_t hi) const {
    if (!Has(name)) return Error{Field(name) + ": missing"};
    return k8s::CheckedInteger(op_[name], lo, hi, Field(name));
  }
  // Nanoseconds of a number of seconds within ±kMaxQueueCaseSeconds; `fallback_ns` when absent.
  Result<int64_t> SecondsNs(const char* name, bool allow_negative, int64_t fallback_ns) const {
    if (!Has(name)) return fallback_ns;
    return k8s::CheckedSecondsAsNanos(op_[name], allow_negative ? -kMaxQueueCaseSeconds : 0,
                                      kMaxQueueCaseSeconds, Field(name));
  }
  Result<std::string> String(const char* name) const {
    if (!Has(name)) return Error{Field(name) + ": missing"};
    if (!op_[name].is_string()) return Error{Field(name) + ": expected a string"};
    return op_[name].get<std::string>();
  }
  // A list of strings; empty when absent.
  Result<std::vector<std::string>> Strings(const char* name) const {
    std::vector<std::string> out;
    if (!Has(name)) return out;
    const nlohmann::json& v = op_[name];
    if (!v.is_array()) return Error{Field(name) + ": expected a list of strings"};
    for (const nlohmann::json& s : v) {
      if (!s.is_string()) return Error{Field(name) + ": expected a list of strings"};
      out.push_back(s.get<std::string>());
    }
    return out;
  }
  Result<bool> Bool(const char* name) const {
    if (!op_[name].is_boolean()) return Error{Field(name) + ": expected true or false"};
    return op_[name].get<bool>();
  }

 private:
  const nlohmann::json& op_;
  std::string at_;
};

// Runs `ops` in order, each through `run_op(name, fields)` (which returns "" when the op's
// expectations held, else what differed): "" when every op ran and held, else "ops[i] (op): what
// differed". An error is a malformed op, naming its index and field.
template <typename RunOp>
Result<std::string> RunQueueOps(const nlohmann::json& ops, const RunOp& run_op) {
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string at = "ops[" + std::to_string(i) + "]";
    const nlohmann::json& op = ops[i];
    if (!op.is_object() || !op.contains("op") || !op["op"].is_string())
      return Error{at + ": expected an object with a string \"op\""};
    const std::string name = op["op"].get<std::string>();
    const std::string prefix = at + " (" + name + "): ";
    Result<std::string> r = Error{""};
    try {
      r = run_op(name, OpFields(op, at));
    } catch (const nlohmann::json::exception& e) {  // a typed read not yet checked field by field
      return Error{prefix + e.what()};
    }
    if (!r.ok()) {
      // Field errors start with "ops[i]."; others (unknown pod, unknown op) get the op's name.
      if (r.message().rfind(at + ".", 0) == 0) return r.error();
      return Error{prefix + r.message()};
    }
    if (!r->empty()) return prefix + *r;
  }
  return std::string();
}

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_QUEUE_OP_FIELDS_H_
