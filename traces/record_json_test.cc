// Kubernetes JSON inside a trace Record, as `trace cat` / `trace convert` write and read it: the
// selector kinds round-trip through ToJson and protobuf's JSON parser, and through the binary form.
#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/k8s_json.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {
namespace {

TEST(RecordJsonTest, SelectorKindsRoundTripInsideRecords) {
  auto docs = k8s::ParseYamlDocuments(R"(kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web, tier: 1}, ports: [{port: 80}]}
---
kind: ReplicationController
metadata: {name: old}
spec: {replicas: 3, selector: {app: old}}
---
kind: ReplicaSet
metadata: {name: rs, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: d, controller: true}]}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web, version: 2}
    matchExpressions: [{key: track, operator: NotIn, values: [canary]}]
  template: {metadata: {labels: {app: web}}}
---
kind: StatefulSet
metadata: {name: db}
spec: {selector: {matchLabels: {app: db}}, serviceName: db}
)",
                                      "kinds.yaml");
  ASSERT_TRUE(docs.ok()) << docs.message();
  ASSERT_EQ(docs->size(), 4u);
  auto service = k8s::ServiceFromJson((*docs)[0].json, "svc");
  auto rc = k8s::ReplicationControllerFromJson((*docs)[1].json, "rc");
  auto rs = k8s::ReplicaSetFromJson((*docs)[2].json, "rs");
  auto ss = k8s::StatefulSetFromJson((*docs)[3].json, "ss");
  ASSERT_TRUE(service.ok() && rc.ok() && rs.ok() && ss.ok())
      << service.message() << rc.message() << rs.message() << ss.message();

  std::vector<Record> records(4);
  *records[0].mutable_api()->mutable_service() = *service;
  *records[1].mutable_api()->mutable_replication_controller() = *rc;
  *records[2].mutable_api()->mutable_replica_set() = *rs;
  *records[3].mutable_api()->mutable_stateful_set() = *ss;
  for (Record& r : records) {
    r.mutable_api()->set_type(DELETED);
    std::string line = k8s::ToJson(r);
    Record back;
    auto status = google::protobuf::util::JsonStringToMessage(line, &back);
    ASSERT_TRUE(status.ok()) << status.ToString() << " " << line;
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(r, back)) << line;
    std::string bytes = r.SerializeAsString();
    Record parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes));
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(r, parsed));
  }
  EXPECT_NE(k8s::ToJson(records[0]).find("\"service\":{"), std::string::npos)
      << k8s::ToJson(records[0]);
}

}  // namespace
}  // namespace schedcheck::trace
