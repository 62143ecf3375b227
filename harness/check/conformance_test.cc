// Runs every conformance case under reference/conformance/cases as its own GoogleTest test, so
// `bazel test` counts cases and names the failing ones.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "harness/check/runner.h"

namespace schedcheck::check {
namespace {

class CaseTest : public ::testing::Test {
 public:
  explicit CaseTest(const Case* c) : case_(c) {}
  void TestBody() override {
    CaseResult r = RunCase(*case_);
    if (r.verdict == CaseResult::Verdict::kSkip) GTEST_SKIP() << r.detail;
    EXPECT_EQ(r.verdict, CaseResult::Verdict::kPass)
        << case_->location << "\nsource: " << case_->source << "\n" << FormatResultLine(*case_, r);
  }

 private:
  const Case* case_;
};

std::string TestName(const std::string& id) {
  std::string out;
  for (char c : id) out += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return out;
}

}  // namespace
}  // namespace schedcheck::check

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* srcdir = std::getenv("TEST_SRCDIR");
  std::string root = srcdir ? std::string(srcdir) + "/schedcheck/" : "";
  static auto cases = schedcheck::check::LoadCases({root + "reference/conformance/cases"});
  if (!cases.ok()) {
    std::fprintf(stderr, "cannot load cases: %s\n", cases.message().c_str());
    return 1;
  }
  if (cases->size() < 150) {
    std::fprintf(stderr, "expected at least 150 conformance cases, found %zu\n", cases->size());
    return 1;
  }
  for (const schedcheck::check::Case& c : *cases) {
    const schedcheck::check::Case* ptr = &c;
    ::testing::RegisterTest(("Conformance_" + c.kind).c_str(), schedcheck::check::TestName(c.id).c_str(), nullptr,
                            nullptr, c.location.c_str(), 0,
                            [ptr]() -> ::testing::Test* { return new schedcheck::check::CaseTest(ptr); });
  }
  return RUN_ALL_TESTS();
}
