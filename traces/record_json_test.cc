// Kubernetes JSON inside a trace Record, as `trace cat` / `trace convert` write and read it: the
// selector kinds round-trip through ToJson and protobuf's JSON parser, and through the binary form.
#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/k8s_json.h"
#include "reference/k8s/selector_kinds_testing.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {
namespace {

TEST(RecordJsonTest, SelectorKindsRoundTripInsideRecords) {
  auto kinds = k8s::testing::ParseSelectorKinds();
  ASSERT_TRUE(kinds.ok()) << kinds.message();

  std::vector<Record> records(4);
  *records[0].mutable_api()->mutable_service() = kinds->service;
  *records[1].mutable_api()->mutable_replication_controller() = kinds->replication_controller;
  *records[2].mutable_api()->mutable_replica_set() = kinds->replica_set;
  *records[3].mutable_api()->mutable_stateful_set() = kinds->stateful_set;
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
