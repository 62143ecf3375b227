// Runs one conformance case against the reference and compares with its expectation.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUNNER_H_
#define SCHEDCHECK_HARNESS_CHECK_RUNNER_H_

#include <string>

#include <nlohmann/json.hpp>

#include "harness/check/case.h"
#include "reference/engine/engine.h"

namespace schedcheck::check {

// Why the reference cannot run a case at this level ("" when it can): v1.27 and v1.37 run every
// kind; other levels run nothing.
std::string UnimplementedCompat(const std::string& compat);

struct CaseResult {
  // kBadInput: the case itself is malformed (an op or field of the wrong type or out of range, an
  // unknown op or plugin, a cluster that cannot be built): `check` exits 2 naming the case and
  // field, since a CI gate must tell a broken case file from a regression (FAIL, exit 1).
  enum class Verdict { kPass, kFail, kSkip, kBadInput };
  Verdict verdict = Verdict::kFail;
  std::string detail;  // FAIL: what differed, expected vs actual; SKIP: why; bad input: the field
};

// `engine`: the reference's form (plain rules by default); a case must pass in both.
CaseResult RunCase(const Case& c, reference::Engine engine = reference::Engine::kPlain);

// "PASS id" / "FAIL id: detail" / "SKIP id: detail" / "ERROR id: detail" (bad input).
std::string FormatResultLine(const Case& c, const CaseResult& r);
// {"id":..., "result":"PASS"|"FAIL"|"SKIP"|"ERROR", "detail":..., "source":..., "location":...}
nlohmann::json ResultJson(const Case& c, const CaseResult& r);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUNNER_H_
