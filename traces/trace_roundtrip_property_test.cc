// Property: any sequence of records written with any events_per_frame reads back equal.
#include <atomic>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

std::string Name() {
  const int size = *rc::gen::inRange(0, 12);
  std::string s;
  for (int i = 0; i < size; ++i) s.push_back(*rc::gen::elementOf(std::string("abcxyz-./09")));
  return s;
}

std::string Quantity() {
  return *rc::gen::elementOf(std::vector<std::string>{"100m", "2", "1Gi", "512Mi", ""});
}

void FillMap(google::protobuf::Map<std::string, std::string>* map) {
  const int n = *rc::gen::inRange(0, 5);
  for (int i = 0; i < n; ++i) (*map)[Name()] = Name();
}

void FillMeta(k8s::ObjectMeta* meta) {
  meta->set_name(Name());
  meta->set_namespace_(Name());
  meta->set_resource_version(std::to_string(*rc::gen::inRange(0, 1000)));
  FillMap(meta->mutable_labels());
  FillMap(meta->mutable_annotations());
}

k8s::Pod GenPod() {
  k8s::Pod pod;
  FillMeta(pod.mutable_metadata());
  const int containers = *rc::gen::inRange(0, 3);
  for (int i = 0; i < containers; ++i) {
    k8s::Container* c = pod.mutable_spec()->add_containers();
    c->set_name(Name());
    (*c->mutable_resources()->mutable_requests())["cpu"] = Quantity();
    (*c->mutable_resources()->mutable_limits())["memory"] = Quantity();
  }
  const int tolerations = *rc::gen::inRange(0, 3);
  for (int i = 0; i < tolerations; ++i) {
    k8s::Toleration* t = pod.mutable_spec()->add_tolerations();
    t->set_key(Name());
    t->set_operator_(*rc::gen::elementOf(std::vector<std::string>{"", "Exists", "Equal"}));
    t->set_effect(*rc::gen::elementOf(std::vector<std::string>{"", "NoSchedule", "NoExecute"}));
    if (*rc::gen::arbitrary<bool>()) t->set_toleration_seconds(*rc::gen::arbitrary<int64_t>());
  }
  FillMap(pod.mutable_spec()->mutable_node_selector());
  if (*rc::gen::arbitrary<bool>()) pod.mutable_spec()->set_priority(*rc::gen::arbitrary<int32_t>());
  pod.mutable_spec()->set_node_name(Name());
  return pod;
}

k8s::Node GenNode() {
  k8s::Node node;
  FillMeta(node.mutable_metadata());
  const int taints = *rc::gen::inRange(0, 3);
  for (int i = 0; i < taints; ++i) {
    k8s::Taint* t = node.mutable_spec()->add_taints();
    t->set_key(Name());
    t->set_value(Name());
    t->set_effect(*rc::gen::elementOf(std::vector<std::string>{"NoSchedule", "NoExecute"}));
  }
  node.mutable_spec()->set_unschedulable(*rc::gen::arbitrary<bool>());
  FillMap(node.mutable_status()->mutable_allocatable());
  return node;
}

Record GenRecord() {
  Record r;
  r.set_time_ns(*rc::gen::arbitrary<int64_t>());
  switch (*rc::gen::inRange(0, 6)) {
    case 0:
      r.mutable_api()->set_type(static_cast<EventType>(*rc::gen::inRange(0, 4)));
      *r.mutable_api()->mutable_pod() = GenPod();
      r.mutable_api()->set_during_attempt(*rc::gen::arbitrary<bool>());
      break;
    case 1:
      r.mutable_api()->set_type(static_cast<EventType>(*rc::gen::inRange(0, 4)));
      *r.mutable_api()->mutable_node() = GenNode();
      break;
    case 2: {
      Attempt* a = r.mutable_attempt();
      a->set_pod(Name());
      a->set_attempt(*rc::gen::inRange(1, 10));
      a->set_result(static_cast<AttemptResult>(*rc::gen::inRange(0, 4)));
      a->set_node(Name());
      const int ties = *rc::gen::inRange(0, 4);
      for (int i = 0; i < ties; ++i) a->add_ties(Name());
      a->add_unschedulable_plugins(Name());
      a->set_message(Name());
      break;
    }
    case 3:
      r.mutable_queue()->set_pod(Name());
      r.mutable_queue()->set_from(Name());
      r.mutable_queue()->set_to(Name());
      r.mutable_queue()->set_cause(Name());
      break;
    case 4:
      r.mutable_binding()->set_pod(Name());
      r.mutable_binding()->set_node(Name());
      break;
    default:
      break;  // an empty record (0 bytes serialized) must survive too
  }
  return r;
}

RC_GTEST_PROP(TraceRoundTrip, RecordsSurviveWriteAndRead, ()) {
  static std::atomic<int> counter{0};
  const std::string path = testing::TempPath("prop_" + std::to_string(counter++) + ".trace");
  // Sometimes long frames of many records.
  const bool long_frames = *rc::gen::arbitrary<bool>();
  const size_t events_per_frame =
      long_frames ? *rc::gen::inRange<size_t>(64, 300) : *rc::gen::inRange<size_t>(1, 8);
  const int n = long_frames ? *rc::gen::inRange(0, 700) : *rc::gen::inRange(0, 40);
  Trace trace;
  trace.header.set_producer(Name());
  trace.header.set_seed(*rc::gen::arbitrary<uint64_t>());
  FillMap(trace.header.mutable_labels());
  for (int i = 0; i < n; ++i) trace.records.push_back(GenRecord());

  auto writer = TraceWriter::Open(path, trace.header, {.events_per_frame = events_per_frame});
  RC_ASSERT(writer.ok());
  for (const Record& r : trace.records) RC_ASSERT((*writer)->Append(r).ok());
  RC_ASSERT((*writer)->Finish().ok());
  RC_ASSERT((*writer)->frames_written() ==
            static_cast<int64_t>((trace.records.size() + events_per_frame - 1) / events_per_frame));

  auto back = ReadTrace(path);
  RC_ASSERT(back.ok());
  trace.header.set_format_version(kFormatVersion);
  RC_ASSERT(google::protobuf::util::MessageDifferencer::Equals(back->header, trace.header));
  RC_ASSERT(testing::SameRecords(back->records, trace.records));

  // NextBorrowed (one Record reused throughout) returns the same records.
  auto reader = TraceReader::Open(path);
  RC_ASSERT(reader.ok());
  std::vector<Record> borrowed;
  const Record* r = nullptr;
  ReadStatus status;
  while ((status = reader->NextBorrowed(&r)) == ReadStatus::kRecord) borrowed.push_back(*r);
  RC_ASSERT(status == ReadStatus::kEnd);
  RC_ASSERT(testing::SameRecords(borrowed, trace.records));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace schedcheck::trace
