#include "traces/input_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/k8s/k8s_json.h"
#include "traces/sample_trace.h"
#include "traces/trace_file.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

using testing::TempPath;

// A pod whose metadata.labels has `labels` entries (keys of at least `key_size` bytes).
Record PodWith(const std::string& name, int labels, size_t key_size = 3) {
  k8s::Pod pod = MakePod("default", name, "100m", "1Gi");
  pod.mutable_metadata()->clear_labels();
  for (int i = 0; i < labels; ++i) {
    std::string key = std::to_string(i);
    key.resize(std::max(key_size, key.size()), 'k');
    (*pod.mutable_metadata()->mutable_labels())[key] = "v";
  }
  return ApiRecord(0, ADDED, pod);
}

// A ResourceSlice with `devices` devices, and a claim template with `requests` requests whose
// first selector is `expression`.
Record SliceWith(int devices) {
  Record r;
  k8s::ResourceSlice* slice = r.mutable_api()->mutable_resource_slice();
  r.mutable_api()->set_type(ADDED);
  slice->mutable_metadata()->set_name("gpus");
  slice->mutable_spec()->set_driver("gpu.example.com");
  slice->mutable_spec()->set_node_name("n1");
  for (int i = 0; i < devices; ++i)
    slice->mutable_spec()->add_devices()->set_name("gpu-" + std::to_string(i));
  return r;
}

// A PodGroup (or, with `in_workload`, a Workload's pod group template) of gang size `min_count`.
Record GangOf(int32_t min_count, bool in_workload = false) {
  Record r;
  r.mutable_api()->set_type(ADDED);
  k8s::PodGroupSchedulingPolicy* policy = nullptr;
  if (in_workload) {
    k8s::Workload* w = r.mutable_api()->mutable_workload();
    w->mutable_metadata()->set_name("train");
    k8s::PodGroupTemplate* t = w->mutable_spec()->add_pod_group_templates();
    t->set_name("workers");
    policy = t->mutable_scheduling_policy();
  } else {
    k8s::PodGroup* g = r.mutable_api()->mutable_pod_group();
    g->mutable_metadata()->set_name("workers");
    policy = g->mutable_spec()->mutable_scheduling_policy();
  }
  policy->mutable_gang()->set_min_count(min_count);
  return r;
}

Record TemplateWith(int requests, const std::string& expression = "true") {
  Record r;
  k8s::ResourceClaimTemplate* t = r.mutable_api()->mutable_resource_claim_template();
  r.mutable_api()->set_type(ADDED);
  t->mutable_metadata()->set_name("gpu");
  t->mutable_metadata()->set_namespace_("default");
  for (int i = 0; i < requests; ++i) {
    k8s::DeviceRequest* request =
        t->mutable_spec()->mutable_spec()->mutable_devices()->add_requests();
    request->set_name("r" + std::to_string(i));
    request->mutable_exactly()->set_device_class_name("gpu");
    request->mutable_exactly()->add_selectors()->mutable_cel()->set_expression(expression);
  }
  return r;
}

std::string WriteBinary(const std::string& name, const std::vector<Record>& records) {
  Trace trace;
  trace.records = records;
  const std::string path = TempPath(name);
  EXPECT_TRUE(WriteTrace(path, trace).ok());
  return path;
}

std::string WriteJsonLines(const std::string& name, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  const std::string path = TempPath(name);
  testing::WriteFileBytes(path, text);
  return path;
}

TEST(InputLimitsTest, ParsesNamesAndRejectsBadSpecs) {
  InputLimits limits;
  ASSERT_TRUE(
      ParseInputLimits({"records=5", "string-bytes=7", "key-bytes=9", "map-entries=11"}, &limits)
          .ok());
  EXPECT_EQ(limits.records, 5);
  EXPECT_EQ(limits.string_bytes, 7);
  EXPECT_EQ(limits.key_bytes, 9);
  EXPECT_EQ(limits.map_entries, 11);
  ASSERT_TRUE(
      ParseInputLimits({"slice-devices=3", "claim-requests=4", "cel-bytes=5"}, &limits).ok());
  EXPECT_EQ(limits.slice_devices, 3);
  EXPECT_EQ(limits.claim_requests, 4);
  EXPECT_EQ(limits.cel_bytes, 5);
  EXPECT_EQ(limits.group_pods, 100'000);
  ASSERT_TRUE(ParseInputLimits({"group-pods=6"}, &limits).ok());
  EXPECT_EQ(limits.group_pods, 6);
  // The YAML limits keep reference/k8s's defaults until raised, and reach its YamlLimits.
  EXPECT_EQ(limits.yaml_depth, 100);
  EXPECT_EQ(limits.yaml_alias_nodes, 1'000'000);
  ASSERT_TRUE(ParseInputLimits({"yaml-depth=200", "yaml-alias-nodes=13"}, &limits).ok());
  EXPECT_EQ(YamlLimitsOf(limits).depth, 200);
  EXPECT_EQ(YamlLimitsOf(limits).alias_nodes, 13);
  for (const char* bad : {"records", "records=", "records=0", "records=-1", "records=1x", "bogus=3",
                          "records=99999999999999999999", "yaml-depth=0",
                          "yaml-depth=", "yaml-alias-nodes=-5", "yaml_depth=5"}) {
    Outcome ok = ParseInputLimit(bad, &limits);
    ASSERT_FALSE(ok.ok()) << bad;
    EXPECT_NE(ok.message().find(std::string("--limit ") + bad), std::string::npos) << ok.message();
  }
  EXPECT_NE(ParseInputLimit("bogus=3", &limits)
                .message()
                .find("records, expanded-objects, string-bytes, key-bytes, map-entries, "
                      "slice-devices, claim-requests, cel-bytes, group-pods, yaml-depth, "
                      "yaml-alias-nodes"),
            std::string::npos);
}

// One table: each limit exceeded in a binary trace and in JSON Lines names the file, the position,
// the field and the option; the same file is accepted with the limit raised.
TEST(InputLimitsTest, EachLimitIsEnforcedByBothReadersAndCanBeRaised) {
  k8s::Pod long_name = MakePod("default", std::string(300, 'n'), "100m", "1Gi");
  struct Case {
    const char* name;
    std::vector<Record> records;
    InputLimits tight;
    std::string want;  // in the message, after the position
  } cases[] = {
      {"records",
       {PodWith("a", 0), PodWith("b", 0), PodWith("c", 0)},
       {.records = 2},
       "more than 2 records, the limit records=2 (raise it with --limit records=N)"},
      {"string",
       {PodWith("a", 0), ApiRecord(0, ADDED, long_name)},
       {.string_bytes = 200},
       "field api.pod.metadata.name: 300 bytes, more than the limit string-bytes=200 (raise it "
       "with --limit "
       "string-bytes=N)"},
      {"key",
       {PodWith("a", 1, 40)},
       {.key_bytes = 30},
       "field api.pod.metadata.labels key: 40 bytes, more than the limit key-bytes=30 (raise it "
       "with --limit "
       "key-bytes=N)"},
      {"entries",
       {PodWith("a", 5), PodWith("b", 6)},
       {.map_entries = 5},
       "field api.pod.metadata.labels: 6 entries, more than the limit map-entries=5 (raise it with "
       "--limit "
       "map-entries=N)"},
      {"slice-devices",
       {SliceWith(2), SliceWith(3)},
       {.slice_devices = 2},
       "field api.resourceSlice.spec.devices: 3 devices, more than the limit slice-devices=2 "
       "(raise "
       "it with --limit slice-devices=N)"},
      {"claim-requests",
       {TemplateWith(2), TemplateWith(3)},
       {.claim_requests = 2},
       "field api.resourceClaimTemplate.spec.spec.devices.requests: 3 requests, more than the "
       "limit "
       "claim-requests=2 (raise it with --limit claim-requests=N)"},
      {"cel-bytes",
       {TemplateWith(1, "device.driver == \"a\""), TemplateWith(1, std::string(40, 'x'))},
       {.cel_bytes = 30},
       "field api.resourceClaimTemplate.spec.spec.devices.requests[0].exactly.selectors[0].cel."
       "expression: 40 bytes, more than the limit cel-bytes=30 (raise it with --limit "
       "cel-bytes=N)"},
      {"group-pods",
       {GangOf(4), GangOf(2'000'000'000)},
       {},
       "field api.podGroup.spec.schedulingPolicy.gang.minCount: 2000000000 pods, more than the "
       "limit group-pods=100000 (raise it with --limit group-pods=N)"},
      {"group-pods in a workload",
       {GangOf(5, true), GangOf(6, true)},
       {.group_pods = 5},
       "field api.workload.spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: 6 pods, more "
       "than the limit group-pods=5 (raise it with --limit group-pods=N)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string binary = WriteBinary(std::string(c.name) + ".trace", c.records);
    auto loaded = LoadTrace(binary, c.tight);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.message().find(binary + ": byte "), std::string::npos) << loaded.message();
    EXPECT_NE(loaded.message().find("(frame 0, event " + std::to_string(c.records.size() - 1) +
                                    "): " + c.want),
              std::string::npos)
        << loaded.message();
    // The reader returns the records before it, then reports the limit as such.
    auto reader = TraceReader::Open(binary, c.tight);
    ASSERT_TRUE(reader.ok());
    Record r;
    for (size_t i = 0; i + 1 < c.records.size(); ++i)
      ASSERT_EQ(reader->Next(&r), ReadStatus::kRecord);
    EXPECT_EQ(reader->Next(&r), ReadStatus::kError);
    EXPECT_EQ(reader->damage(), DamageKind::kLimit);
    const InputLimits raised_limits{.group_pods = INT32_MAX};
    auto raised = LoadTrace(binary, raised_limits);
    ASSERT_TRUE(raised.ok()) << raised.message();
    EXPECT_TRUE(testing::SameRecords(raised->records, c.records));

    // JSON Lines: the line of the record.
    std::vector<std::string> lines = {"{\"header\": {\"compat\": \"1.27\"}}"};
    for (const Record& rec : c.records) lines.push_back(k8s::ToJson(rec));
    const std::string jsonl = WriteJsonLines(std::string(c.name) + ".jsonl", lines);
    loaded = LoadTrace(jsonl, c.tight);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(
        loaded.message().find(jsonl + ": line " + std::to_string(lines.size()) + ": " + c.want),
        std::string::npos)
        << loaded.message();
    raised = LoadTrace(jsonl, raised_limits);
    ASSERT_TRUE(raised.ok()) << raised.message();
    EXPECT_TRUE(testing::SameRecords(raised->records, c.records));
  }
}

TEST(InputLimitsTest, HeaderLabelsAreChecked) {
  Trace trace;
  (*trace.header.mutable_labels())["source"] = std::string(100, 's');
  const std::string path = TempPath("header.trace");
  ASSERT_TRUE(WriteTrace(path, trace).ok());
  auto loaded = LoadTrace(path, {.string_bytes = 50});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find(
                path + ": byte 16: file header: field labels[\"source\"]: 100 bytes, more than "
                       "the limit string-bytes=50"),
            std::string::npos)
      << loaded.message();
}

// The skip of the walk for small records is sound: a record of N bytes holds no string, key or
// map larger than N (or N/2 entries).
TEST(InputLimitsTest, FitsTriviallyOnlyWhenNoLimitCanBeExceeded) {
  const InputLimits limits{.string_bytes = 100, .key_bytes = 50, .map_entries = 10};
  const Record empty;
  EXPECT_TRUE(FitsTrivially(empty, 21, limits));
  EXPECT_FALSE(FitsTrivially(empty, 22, limits));  // 22 bytes may hold 11 map entries
  EXPECT_FALSE(FitsTrivially(empty, 51, InputLimits{.string_bytes = 100, .key_bytes = 50}));
  Record r = PodWith("a", 11, 1);
  EXPECT_FALSE(FitsTrivially(r, r.ByteSizeLong(), limits));
  EXPECT_FALSE(CheckMessageLimits(r, limits, "").ok());
  // The DRA counts too: 3 devices take 6 bytes.
  const InputLimits two_devices{.slice_devices = 2};
  EXPECT_FALSE(FitsTrivially(empty, 6, two_devices));
  EXPECT_TRUE(FitsTrivially(empty, 5, two_devices));
  // A gang's minCount is not bounded by its bytes: a record holding a pod group (or a workload,
  // or an ApiEvent holding one) is always walked.
  const Record huge_gang = GangOf(INT32_MAX);
  // Its size alone would pass (a record of no pod group that small fits every limit) ...
  EXPECT_TRUE(FitsTrivially(empty, huge_gang.ByteSizeLong(), InputLimits{}));
  // ... the pod group does not.
  EXPECT_FALSE(FitsTrivially(huge_gang, huge_gang.ByteSizeLong(), InputLimits{}));
  EXPECT_FALSE(FitsTrivially(huge_gang.api(), huge_gang.api().ByteSizeLong(), InputLimits{}));
  EXPECT_FALSE(FitsTrivially(GangOf(1, true), 10, InputLimits{}));
  EXPECT_FALSE(CheckMessageLimits(huge_gang, InputLimits{}, "").ok());
  EXPECT_TRUE(CheckMessageLimits(GangOf(100'000), InputLimits{}, "").ok());
  EXPECT_FALSE(CheckMessageLimits(SliceWith(3), two_devices, "").ok());
  EXPECT_TRUE(CheckMessageLimits(SliceWith(2), two_devices, "").ok());
}

// A message that is itself a field (a case file's pods[1]) is named by its path.
TEST(InputLimitsTest, CheckMessageLimitsStartsTheFieldPathWithPath) {
  const k8s::Pod pod = MakePod("default", std::string(20, 'p'), "100m", "1Gi");
  Outcome ok = CheckMessageLimits(pod, {.string_bytes = 19}, "c.yaml: line 3", "pods[1]");
  ASSERT_FALSE(ok.ok());
  EXPECT_EQ(ok.message(),
            "c.yaml: line 3: field pods[1].metadata.name: 20 bytes, more than the limit "
            "string-bytes=19 (raise it with --limit string-bytes=N)");
}

}  // namespace
}  // namespace schedcheck::trace
