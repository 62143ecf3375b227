// The summary's JSON round trip, its errors, the reports and the merge of shards.
#include "harness/campaign/summary.h"

#include "gtest/gtest.h"

namespace schedcheck::campaign {
namespace {

Group MakeGroup(const std::string& signature, std::vector<int64_t> traces,
                const std::string& cls = "hard") {
  Group g;
  g.id = std::to_string(traces.front()) + "-" + cls;
  g.signature = signature;
  g.cls = cls;
  g.plugins = {"NodeResourcesFit"};
  g.traces = std::move(traces);
  g.generator = "scenarios";
  g.trace_seed = 77;
  g.replay_seed = 78;
  g.first = "pod default/p <first> & \"quoted\"";
  g.minimized = "events 9 → 2";
  return g;
}

Summary Shard(const std::string& shard) {
  Summary s;
  s.candidate = "forget-events:NodeResourcesFit";
  s.seed = 3;
  s.traces = 10;
  s.generators = {"scenarios", "wide"};
  s.shards = {shard};
  return s;
}

TEST(Summary, JsonRoundTrip) {
  Summary s = Shard("0/1");
  s.traces_run = 9;
  s.passed = 6;
  s.groups = {MakeGroup("sig a", {1, 4}), MakeGroup("sig b", {2}, "crash")};
  s.skipped = {{7, "generator failed"}};
  s.nondeterministic = {{8, "build kube:1.37 is not deterministic"}};
  auto back = FromJson(nlohmann::json::parse(ToJson(s).dump()), "x.json");
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(ToJson(*back).dump(), ToJson(s).dump());
  EXPECT_EQ(back->ExitCode(), 3);
  back->nondeterministic.clear();
  EXPECT_EQ(back->ExitCode(), 1);
  back->groups.clear();
  EXPECT_EQ(back->ExitCode(), 0);
}

TEST(Summary, FromJsonNamesTheField) {
  nlohmann::json j = nlohmann::json::parse(ToJson(Shard("0/1")).dump());
  j.erase("seed");
  auto missing = FromJson(j, "dir/summary.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "dir/summary.json: field \"seed\" is missing");
  j = nlohmann::json::parse(ToJson(Shard("0/1")).dump());
  j["groups"] = nlohmann::json::array({{{"id", 3}}});
  auto wrong = FromJson(j, "s.json");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.message(), "s.json: groups[0]: field \"id\" has the wrong type");
  j["format"] = 9;
  EXPECT_FALSE(FromJson(j, "s.json").ok());
}

TEST(Summary, ReportsEscapeAndCount) {
  Summary s = Shard("0/1");
  s.traces_run = 10;
  s.passed = 8;
  s.groups = {MakeGroup("sig <a>", {1, 4})};
  const std::string junit = JUnitSummary(s);
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("message=\"sig &lt;a&gt;\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("&quot;quoted&quot;"), std::string::npos);
  EXPECT_NE(junit.find("8 traces without findings"), std::string::npos);
  const std::string md = MarkdownSummary(s);
  EXPECT_NE(md.find("**8 of 10 traces without findings; 1 group(s) of findings.**"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("[1-hard](groups/1-hard/)"), std::string::npos) << md;
}

TEST(Merge, JoinsGroupsBySignatureAndKeepsTheFirstTrace) {
  Summary a = Shard("0/2"), b = Shard("1/2");
  a.traces_run = b.traces_run = 5;
  a.passed = 3;
  b.passed = 2;
  a.groups = {MakeGroup("same", {2, 4}), MakeGroup("only a", {6})};
  b.groups = {MakeGroup("same", {1, 9}), MakeGroup("only b", {3})};
  b.groups[0].generator = "wide";
  auto m = Merge({a, b}, {"a", "b"});
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->shards, (std::vector<std::string>{"0/2", "1/2"}));
  EXPECT_EQ(m->traces_run, 10);
  EXPECT_EQ(m->passed, 5);
  ASSERT_EQ(m->groups.size(), 3u);
  EXPECT_EQ(m->groups[0].signature, "same");
  EXPECT_EQ(m->groups[0].traces, (std::vector<int64_t>{1, 2, 4, 9}));
  EXPECT_EQ(m->groups[0].generator, "wide");  // trace 1's, from shard b
  EXPECT_EQ(m->groups[0].id, "1-hard");
  EXPECT_EQ(m->groups[1].signature, "only b");
  EXPECT_EQ(m->groups[2].signature, "only a");
}

TEST(Merge, RefusesOtherCampaignsAndRepeatedShards) {
  Summary a = Shard("0/2"), b = Shard("1/2");
  b.seed = 4;
  auto other = Merge({a, b}, {"a/summary.json", "b/summary.json"});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.message(),
            "b/summary.json: field \"seed\" differs from a/summary.json's: not a shard of the "
            "same campaign");
  auto twice = Merge({a, a}, {"a", "a2"});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("shard 0/2 is merged twice"), std::string::npos);
}

}  // namespace
}  // namespace schedcheck::campaign
