// Candidate specs, and that a forget-events wrapper keeps every scheduling point of the plugin it
// wraps while registering no events.
#include "harness/candidates/candidate.h"

#include <gtest/gtest.h>

#include "harness/candidates/forget_events.h"
#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"

namespace schedcheck::candidates {
namespace {

using reference::ExtensionPoint;

std::unique_ptr<reference::Framework> Build(const Candidate& c, reference::Handle* handle) {
  auto fw = reference::Framework::Create(c.config.profiles.at(0),
                                         c.registry ? *c.registry : reference::PluginRegistry(), handle);
  EXPECT_TRUE(fw.ok()) << fw.message();
  return fw.ok() ? std::move(*fw) : nullptr;
}

TEST(CandidateTest, WeightChangesOnlyThatPlugin) {
  auto base = reference::DefaultConfiguration("1.27");
  auto c = MakeCandidate("weight:NodeAffinity=5", base);
  ASSERT_TRUE(c.ok()) << c.message();
  reference::Snapshot snapshot;
  reference::Handle handle;
  handle.snapshot = &snapshot;
  auto fw = Build(*c, &handle);
  auto ref = Build({"reference", base, nullptr}, &handle);
  ASSERT_TRUE(fw && ref);
  EXPECT_EQ(fw->ScoreWeight("NodeAffinity"), 5);
  EXPECT_EQ(ref->ScoreWeight("NodeAffinity"), 2);
  EXPECT_EQ(fw->ScoreWeight("TaintToleration"), ref->ScoreWeight("TaintToleration"));
}

TEST(CandidateTest, BadSpecsNameWhatIsWrong) {
  auto base = reference::DefaultConfiguration("1.27");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"weight:NoSuchPlugin=2", "NoSuchPlugin is not enabled"},
      {"weight:NodeAffinity=0", "want an integer from 1 to 100"},
      {"weight:NodeAffinity", "want PLUGIN=N"},
      {"forget-events:NoSuchPlugin", "unknown plugin \"NoSuchPlugin\""},
      {"config:/no/such/file.yaml", "/no/such/file.yaml"},
      {"mutate:x", "unknown kind \"mutate\""},
      {"weight:", "want KIND:ARG"},
  };
  for (const auto& [spec, want] : cases) {
    auto c = MakeCandidate(spec, base);
    ASSERT_FALSE(c.ok()) << spec;
    EXPECT_NE(c.message().find(want), std::string::npos) << spec << ": " << c.message();
    EXPECT_NE(c.message().find(spec), std::string::npos) << c.message();
  }
}

TEST(ForgetEventsTest, KeepsEveryPointButRegistersNoEvents) {
  auto base = reference::DefaultConfiguration("1.27");
  auto c = MakeCandidate("reference+forget-events:TaintToleration+forget-events:DefaultBinder", base);
  ASSERT_TRUE(c.ok()) << c.message();
  ASSERT_NE(c->registry, nullptr);
  reference::Snapshot snapshot;
  reference::Handle handle;
  handle.snapshot = &snapshot;
  auto fw = Build(*c, &handle);
  auto ref = Build({"reference", base, nullptr}, &handle);
  ASSERT_TRUE(fw && ref);
  for (ExtensionPoint p : {ExtensionPoint::kQueueSort, ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,
                           ExtensionPoint::kPostFilter, ExtensionPoint::kPreScore, ExtensionPoint::kScore,
                           ExtensionPoint::kBind}) {
    EXPECT_EQ(fw->PluginNames(p), ref->PluginNames(p)) << reference::ExtensionPointName(p);
  }
  EXPECT_EQ(fw->ScoreWeight("TaintToleration"), 3);
  auto count = [](const reference::Framework& f, const std::string& name) {
    size_t n = 0;
    for (const auto& [event, plugin] : f.EventRegistrations()) n += plugin == name;
    return n;
  };
  EXPECT_GT(count(*ref, "TaintToleration"), 0u);
  EXPECT_EQ(count(*ref, "DefaultBinder"), 6u);  // no EnqueueExtensions: the default set
  EXPECT_EQ(count(*fw, "TaintToleration"), 0u);
  EXPECT_EQ(count(*fw, "DefaultBinder"), 0u);
  EXPECT_EQ(fw->EventRegistrations().size() + count(*ref, "TaintToleration") + count(*ref, "DefaultBinder"),
            ref->EventRegistrations().size());
}

}  // namespace
}  // namespace schedcheck::candidates
