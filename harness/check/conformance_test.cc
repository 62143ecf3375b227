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
  CaseTest(const Case* c, reference::Engine engine) : case_(c), engine_(engine) {}
  void TestBody() override {
    CaseResult r = RunCase(*case_, engine_);
    if (r.verdict == CaseResult::Verdict::kSkip) GTEST_SKIP() << r.detail;
    EXPECT_EQ(r.verdict, CaseResult::Verdict::kPass)
        << case_->location << "\nsource: " << case_->source << "\n"
        << FormatResultLine(*case_, r);
  }

 private:
  const Case* case_;
  reference::Engine engine_;
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
  // Every case in both engines: the plain rules state what upstream does, and the accelerator
  // must agree with them on every case.
  for (schedcheck::reference::Engine engine :
       {schedcheck::reference::Engine::kPlain, schedcheck::reference::Engine::kFast}) {
    const std::string suite = "_" + std::string(schedcheck::reference::EngineName(engine));
    for (const schedcheck::check::Case& c : *cases) {
      const schedcheck::check::Case* ptr = &c;
      ::testing::RegisterTest(("Conformance_" + c.kind + suite).c_str(),
                              schedcheck::check::TestName(c.id).c_str(), nullptr, nullptr,
                              c.location.c_str(), 0, [ptr, engine]() -> ::testing::Test* {
                                return new schedcheck::check::CaseTest(ptr, engine);
                              });
    }
  }
  return RUN_ALL_TESTS();
}
