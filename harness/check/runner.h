// Runs one conformance case against the reference and compares with its expectation.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUNNER_H_
#define SCHEDCHECK_HARNESS_CHECK_RUNNER_H_

#include <string>

#include <nlohmann/json.hpp>

#include "harness/check/case.h"
#include "reference/engine/engine.h"

namespace schedcheck::check {

// Compatibility levels the reference implements.
bool IsImplementedCompat(const std::string& compat);

struct CaseResult {
  enum class Verdict { kPass, kFail, kSkip };
  Verdict verdict = Verdict::kFail;
  std::string detail;  // FAIL: what differed, expected vs actual; SKIP: why
};

// `engine`: the reference's form (plain rules by default); a case must pass in both.
CaseResult RunCase(const Case& c, reference::Engine engine = reference::Engine::kPlain);

// "PASS id" / "FAIL id: detail" / "SKIP id: detail".
std::string FormatResultLine(const Case& c, const CaseResult& r);
// {"id":..., "result":"PASS"|"FAIL"|"SKIP", "detail":..., "source":..., "location":...}
nlohmann::json ResultJson(const Case& c, const CaseResult& r);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUNNER_H_
