// Workloads and PodGroups (scheduling.k8s.io/v1beta1) and pods' spec.schedulingGroup through the
// importers: manifests (a Job whose template names a pod group expands to pods naming it), watch
// captures and audit logs decode them with upstream's field names, redaction drops the alpha
// CompositePodGroup fields, validation follows upstream's rules (errors naming file, line and
// field), the gang size is an input limit, and JSON Lines keeps every object.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/k8s_json.h"
#include "traces/importers/audit_importer.h"
#include "traces/importers/import_testing.h"
#include "traces/importers/manifests_importer.h"
#include "traces/importers/watch_importer.h"
#include "traces/trace_file.h"

namespace schedcheck::trace {
namespace {

using testing::Contains;
using testing::Label;
using testing::TestData;
using testing::WriteTemp;

std::string KindOf(const ApiEvent& e) {
  return e.GetReflection()
      ->GetOneofFieldDescriptor(e, e.GetDescriptor()->FindOneofByName("object"))
      ->json_name();
}

TEST(PodGroupImportTest, JobNamingAPodGroupExpandsToPodsInTheGroup) {
  auto imported = ImportManifests({TestData("gang/training-job.yaml")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> kinds;
  for (const Record& r : imported->records) kinds.push_back(KindOf(r.api()));
  // The group objects before the nodes and pods (manifests_importer.cc's order).
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"workload", "podGroup", "node", "pod", "pod", "pod", "pod"}));
  const k8s::Workload& workload = imported->records[0].api().workload();
  EXPECT_EQ(workload.spec().controller_ref().kind(), "Job");
  const k8s::PodGroupTemplate& tmpl = workload.spec().pod_group_templates(0);
  EXPECT_EQ(tmpl.name(), "workers");
  EXPECT_EQ(tmpl.scheduling_policy().gang().min_count(), 4);
  EXPECT_EQ(tmpl.scheduling_constraints().topology(0).key(), "topology.kubernetes.io/zone");
  EXPECT_TRUE(tmpl.disruption_mode().has_all());
  EXPECT_EQ(tmpl.priority(), 1000);
  const k8s::PodGroup& group = imported->records[1].api().pod_group();
  EXPECT_EQ(group.metadata().namespace_(), "ml");
  EXPECT_EQ(group.spec().workload_ref().template_name(), "workers");
  EXPECT_EQ(group.spec().scheduling_policy().gang().min_count(), 4);
  EXPECT_FALSE(group.spec().scheduling_policy().has_basic());
  EXPECT_EQ(group.spec().preemption_policy(), "PreemptLowerPriority");
  EXPECT_EQ(group.status().conditions(0).type(), "PodGroupInitiallyScheduled");
  for (size_t i = 3; i < imported->records.size(); ++i) {
    const k8s::Pod& pod = imported->records[i].api().pod();
    EXPECT_EQ(pod.metadata().namespace_(), "ml");
    EXPECT_EQ(pod.spec().scheduling_group().pod_group_name(), "train-workers");
    EXPECT_EQ(pod.metadata().owner_references(0).kind(), "Job");
  }
  EXPECT_EQ(Label(*imported, "expanded.pods"), "4");
  // The CompositePodGroup gate's fields (alpha, off at v1.37.2) are dropped and counted.
  EXPECT_TRUE(
      Contains(Label(*imported, "redacted.paths"), "PodGroup:spec.parentCompositePodGroupName=1"))
      << Label(*imported, "redacted.paths");
  EXPECT_TRUE(
      Contains(Label(*imported, "redacted.paths"), "Workload:spec.compositePodGroupTemplates=1"))
      << Label(*imported, "redacted.paths");
}

TEST(PodGroupImportTest, BasicPolicyStaysPresentThroughJsonLines) {
  for (const char* file : {"gang/training-job.yaml", "gang/basic-group.yaml"}) {
    SCOPED_TRACE(file);
    auto imported = ImportManifests({TestData(file)}, {});
    ASSERT_TRUE(imported.ok()) << imported.message();
    std::string text = "{\"header\": {\"compat\": \"1.37\"}}\n";
    for (const Record& r : imported->records) text += k8s::ToJson(r) + "\n";
    auto loaded = LoadTrace(WriteTemp("gang.jsonl", text));
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    ASSERT_EQ(loaded->records.size(), imported->records.size());
    for (size_t i = 0; i < loaded->records.size(); ++i) {
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(loaded->records[i],
                                                                     imported->records[i]))
          << k8s::ToJson(imported->records[i]);
    }
  }
  auto basic = ImportManifests({TestData("gang/basic-group.yaml")}, {});
  ASSERT_TRUE(basic.ok()) << basic.message();
  const k8s::PodGroup& group = basic->records[0].api().pod_group();
  // `basic: {}` is the whole policy: an empty message, present.
  EXPECT_TRUE(group.spec().scheduling_policy().has_basic());
  EXPECT_TRUE(Contains(k8s::ToJson(basic->records[0]), "\"schedulingPolicy\":{\"basic\":{}}"))
      << k8s::ToJson(basic->records[0]);
  EXPECT_EQ(basic->records[1].api().pod().spec().scheduling_group().pod_group_name(), "web");
}

TEST(PodGroupImportTest, WatchCapturesCarryPodGroups) {
  const std::string capture = WriteTemp(
      "gang-watch.json",
      R"({"type":"ADDED","time":"2026-01-01T00:00:00Z","object":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{"name":"g","namespace":"default","resourceVersion":"5"},"spec":{"schedulingPolicy":{"gang":{"minCount":2}}}}}
{"type":"ADDED","time":"2026-01-01T00:00:01Z","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","resourceVersion":"6"},"spec":{"schedulingGroup":{"podGroupName":"g"},"containers":[{"name":"c"}]}}}
{"type":"MODIFIED","time":"2026-01-01T00:00:02Z","object":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{"name":"g","namespace":"default","resourceVersion":"7"},"spec":{"schedulingPolicy":{"gang":{"minCount":3}}}}}
{"type":"DELETED","time":"2026-01-01T00:00:03Z","object":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"Workload","metadata":{"name":"w","namespace":"default","resourceVersion":"8"},"spec":{"podGroupTemplates":[{"name":"t","schedulingPolicy":{"basic":{}}}]}}}
)");
  auto imported = ImportWatch({capture}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 4u);
  EXPECT_EQ(imported->records[0].api().pod_group().spec().scheduling_policy().gang().min_count(),
            2);
  EXPECT_EQ(imported->records[1].api().pod().spec().scheduling_group().pod_group_name(), "g");
  EXPECT_EQ(imported->records[2].api().type(), MODIFIED);
  EXPECT_EQ(imported->records[2].api().pod_group().spec().scheduling_policy().gang().min_count(),
            3);
  EXPECT_EQ(imported->records[3].api().type(), DELETED);
  EXPECT_EQ(imported->records[3].api().workload().spec().pod_group_templates(0).name(), "t");
}

// The audit log's resource table names the two kinds: a create of each becomes its watch event.
TEST(PodGroupImportTest, AuditLogsCarryPodGroupsAndWorkloads) {
  const std::string log = WriteTemp(
      "gang-audit.jsonl",
      R"({"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"workloads","namespace":"default","name":"w","apiGroup":"scheduling.k8s.io","apiVersion":"v1beta1"},"responseStatus":{"code":201},"responseObject":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"Workload","metadata":{"name":"w","namespace":"default","resourceVersion":"5"},"spec":{"podGroupTemplates":[{"name":"t","schedulingPolicy":{"gang":{"minCount":2}}}]}},"stageTimestamp":"2026-01-01T00:00:00.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"podgroups","namespace":"default","name":"g","apiGroup":"scheduling.k8s.io","apiVersion":"v1beta1"},"responseStatus":{"code":201},"responseObject":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{"name":"g","namespace":"default","resourceVersion":"6"},"spec":{"schedulingPolicy":{"gang":{"minCount":2}}}},"stageTimestamp":"2026-01-01T00:00:01.000000Z"}
)");
  auto imported = ImportAudit({log}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 2u);
  EXPECT_EQ(KindOf(imported->records[0].api()), "workload");
  EXPECT_EQ(KindOf(imported->records[1].api()), "podGroup");
  EXPECT_EQ(imported->records[1].api().pod_group().spec().scheduling_policy().gang().min_count(),
            2);
}

// Upstream's validation, one rule per row: the error names the file, the line of the document
// and the field.
TEST(PodGroupImportTest, InvalidObjectsNameFileLineAndField) {
  const std::string group =
      "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec:\n";
  const std::string workload =
      "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w}\nspec:\n";
  const std::string gang = "  schedulingPolicy: {gang: {minCount: 2}}\n";
  std::string nine_templates = workload + "  podGroupTemplates:\n";
  for (int i = 0; i < 9; ++i)
    nine_templates += "  - {name: t" + std::to_string(i) + ", schedulingPolicy: {basic: {}}}\n";
  struct Case {
    std::string yaml;
    std::string want;
  } cases[] = {
      {group + "  workloadRef: {workloadName: w, templateName: t}\n",
       "field spec.schedulingPolicy: Required value"},
      {group + "  schedulingPolicy: {}\n",
       "field spec.schedulingPolicy: must specify one of: `basic`, `gang`"},
      {group + "  schedulingPolicy: {basic: {}, gang: {minCount: 2}}\n",
       "field spec.schedulingPolicy: must specify exactly one of: `basic`, `gang`"},
      {group + "  schedulingPolicy: {gang: {}}\n",
       "field spec.schedulingPolicy.gang.minCount: Required value"},
      {group + "  schedulingPolicy: {gang: {minCount: 0}}\n",
       "field spec.schedulingPolicy.gang.minCount: must be greater than or equal to 1"},
      {group + "  schedulingPolicy: {gang: {minCount: \"4\"}}\n",
       "field spec.schedulingPolicy.gang.minCount: expected an integer, got string"},
      {group + "  schedulingPolicy: {gang: {minCount: 4294967296}}\n",
       "field spec.schedulingPolicy.gang.minCount: must be less than or equal to 2147483647"},
      {group + gang + "  schedulingConstraints:\n    topology: [{key: a}, {key: b}]\n",
       "field spec.schedulingConstraints.topology: must have at most 1 item, got 2"},
      {group + gang + "  schedulingConstraints:\n    topology: [{}]\n",
       "field spec.schedulingConstraints.topology[0].key: Required value"},
      {group + gang + "  resourceClaims: [{name: a}]\n",
       "field spec.resourceClaims[0]: must specify one of: `resourceClaimName`, "
       "`resourceClaimTemplateName`"},
      {group + gang +
           "  resourceClaims: [{name: a, resourceClaimName: x}, {name: a, resourceClaimName: y}]\n",
       "field spec.resourceClaims[1].name: duplicate value \"a\""},
      {group + gang + "  disruptionMode: {single: {}, all: {}}\n",
       "field spec.disruptionMode: must specify exactly one of: `single`, `all`"},
      {group + gang + "  priority: 2000000000\n",
       "field spec.priority: must be less than or equal to 1000000000"},
      {group + gang + "  preemptionPolicy: Sometimes\n",
       "field spec.preemptionPolicy: unsupported value \"Sometimes\" (supported: "
       "\"PreemptLowerPriority\", \"Never\")"},
      {group + gang + "  workloadRef: {workloadName: w}\n",
       "field spec.workloadRef.templateName: Required value"},
      {"apiVersion: scheduling.k8s.io/v1alpha3\nkind: PodGroup\nmetadata: {name: g}\nspec:\n" +
           gang,
       "field apiVersion: unsupported value \"scheduling.k8s.io/v1alpha3\" for a PodGroup "
       "(supported: \"scheduling.k8s.io/v1beta1\", the version kube-scheduler v1.37.2 reads)"},
      {workload + "  controllerRef: {kind: Job}\n  podGroupTemplates: [{name: t, "
                  "schedulingPolicy: {basic: {}}}]\n",
       "field spec.controllerRef.name: Required value"},
      {workload + "  podGroupTemplates: []\n", "field spec.podGroupTemplates: Required value"},
      {nine_templates, "field spec.podGroupTemplates: must have at most 8 items, got 9"},
      {workload + "  podGroupTemplates: [{name: T, schedulingPolicy: {basic: {}}}]\n",
       "field spec.podGroupTemplates[0].name: invalid value \"T\": must be a DNS label"},
      {workload + "  podGroupTemplates: [{name: t, schedulingPolicy: {gang: {minCount: -1}}}]\n",
       "field spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: must be greater than or "
       "equal to 1"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  schedulingGroup: {}\n"
       "  containers:\n  - name: c\n",
       "field spec.schedulingGroup: must specify one of: `podGroupName`"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  schedulingGroup: {podGroupName: "
       "Not_A_Name}\n  containers:\n  - name: c\n",
       "field spec.schedulingGroup.podGroupName: invalid value \"Not_A_Name\": must be a DNS "
       "subdomain"},
      {"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n"
       "      restartPolicy: Never\n      schedulingGroup: {podGroupName: 7}\n"
       "      containers:\n      - name: c\n",
       "field spec.template.spec.schedulingGroup.podGroupName: invalid value 7"},
  };
  for (const Case& c : cases) {
    const std::string path = WriteTemp("bad.yaml", "# leading comment\n---\n" + c.yaml);
    auto imported = ImportManifests({path}, {});
    ASSERT_FALSE(imported.ok()) << c.yaml;
    EXPECT_TRUE(Contains(imported.message(), path + ": line 3: " + c.want))
        << imported.message() << "\nwant: " << c.want;
  }
}

// A gang's size is bounded by --limit group-pods: an absurd minCount is refused naming the field
// and the option, and imports once the limit is raised.
TEST(PodGroupImportTest, GangMinCountLimitNamesItsOption) {
  const std::string yaml =
      "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec:\n"
      "  schedulingPolicy: {gang: {minCount: 2000000000}}\n";
  const std::string path = WriteTemp("huge-gang.yaml", yaml);
  auto imported = ImportManifests({path}, {});
  ASSERT_FALSE(imported.ok());
  EXPECT_TRUE(Contains(imported.message(),
                       "field podGroup.spec.schedulingPolicy.gang.minCount: 2000000000 pods, more "
                       "than the limit group-pods=100000 (raise it with --limit group-pods=N)"))
      << imported.message();
  EXPECT_TRUE(Contains(imported.message(), path)) << imported.message();
  // The same object in a watch capture, whose records are checked without the manifests' walk.
  const std::string capture = WriteTemp(
      "huge-gang-watch.json",
      R"({"type":"ADDED","time":"2026-01-01T00:00:00Z","object":{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{"name":"g","namespace":"default"},"spec":{"schedulingPolicy":{"gang":{"minCount":2000000000}}}}}
)");
  auto watched = ImportWatch({capture}, {});
  ASSERT_FALSE(watched.ok());
  EXPECT_TRUE(Contains(watched.message(), "more than the limit group-pods=100000"))
      << watched.message();
  ImportOptions raised;
  raised.limits.group_pods = 2'000'000'000;
  EXPECT_TRUE(ImportManifests({path}, raised).ok());
  EXPECT_TRUE(ImportWatch({capture}, raised).ok());
}

}  // namespace
}  // namespace schedcheck::trace
