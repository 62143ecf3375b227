#include "reference/k8s/json_to_message.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::k8s {
namespace {

namespace pb = google::protobuf;
using nlohmann::json;

// protobuf's own parser, as k8s_json decodes objects.
bool ParseWithProtobuf(const json& j, pb::Message* out) {
  pb::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  return pb::util::JsonStringToMessage(j.dump(), out, options).ok();
}

// A value of no particular type: what a wrong or unusual input holds.
json OddValue() {
  switch (*rc::gen::inRange(0, 9)) {
    case 0:
      return nullptr;
    case 1:
      return *rc::gen::inRange(-3, 3) + 0.5;
    case 2:
      return "5";
    case 3:
      return "\xc3\xa9t\xc3\xa9";  // non-ASCII
    case 4:
      return json::array({1, "a"});
    case 5:
      return json::object({{"x", 1}});
    case 6:
      return int64_t{1} << 40;
    case 7:
      return uint64_t{1} << 63;
    default:
      return true;
  }
}

json RandomObject(const pb::Descriptor* type, int depth);

// A value for `field`, mostly of its type, sometimes not.
json RandomValue(const pb::FieldDescriptor* field, int depth, bool element) {
  if (*rc::gen::inRange(0, 12) == 0) return OddValue();
  if (field->is_map() && !element) {
    json m = json::object();
    for (int n = *rc::gen::inRange(0, 3); n > 0; --n) {
      m[*rc::gen::element<std::string>("a", "b", "zone", "k8s.io/x")] =
          *rc::gen::inRange(0, 8) == 0 ? OddValue()
                                       : json(*rc::gen::element<std::string>("1", "", "v"));
    }
    return m;
  }
  if (field->is_repeated() && !element) {
    json a = json::array();
    for (int n = *rc::gen::inRange(0, 3); n > 0; --n) a.push_back(RandomValue(field, depth, true));
    return a;
  }
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return *rc::gen::element<std::string>("", "a", "node-1", "100m");
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return *rc::gen::element<int64_t>(0, 1, -7, 2147483647, 2147483648LL);
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return *rc::gen::element<int64_t>(0, 3, -1, int64_t{1} << 60);
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return *rc::gen::arbitrary<bool>();
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      if (field->message_type() == pb::Value::descriptor()) {
        return *rc::gen::inRange(0, 2) == 0 ? json("50%") : json(*rc::gen::inRange(0, 5));
      }
      return depth > 3 ? json::object() : RandomObject(field->message_type(), depth + 1);
    default:
      return OddValue();
  }
}

json RandomObject(const pb::Descriptor* type, int depth) {
  json out = json::object();
  for (int i = 0; i < type->field_count(); ++i) {
    if (*rc::gen::inRange(0, 3) != 0) continue;
    const pb::FieldDescriptor* f = type->field(i);
    // Mostly the JSON name; sometimes the .proto name, sometimes both.
    const int naming = *rc::gen::inRange(0, 10);
    if (naming != 9) out[f->json_name()] = RandomValue(f, depth, false);
    if (naming >= 8) out[f->name()] = RandomValue(f, depth, false);
  }
  if (*rc::gen::inRange(0, 4) == 0) out["unknownField"] = OddValue();
  return out;
}

// Whenever the direct decoder gives a message, protobuf's parser gives the same one.
template <typename Message>
void CheckAgainstProtobuf() {
  const json input = RandomObject(Message::descriptor(), 0);
  Message direct, parsed;
  const bool direct_ok = JsonToMessage(input, &direct);
  RC_CLASSIFY(direct_ok, "decoded directly");
  if (!direct_ok) return;
  RC_ASSERT(ParseWithProtobuf(input, &parsed));
  RC_ASSERT(pb::util::MessageDifferencer::Equals(direct, parsed));
}

RC_GTEST_PROP(JsonToMessage, PodAsProtobufParsesIt, ()) { CheckAgainstProtobuf<Pod>(); }
RC_GTEST_PROP(JsonToMessage, NodeAsProtobufParsesIt, ()) { CheckAgainstProtobuf<Node>(); }
RC_GTEST_PROP(JsonToMessage, PdbAsProtobufParsesIt, ()) {
  CheckAgainstProtobuf<PodDisruptionBudget>();
}

// A pod as a watch stream prints it takes the direct path.
TEST(JsonToMessage, DecodesAWatchedPodDirectly) {
  const json pod = json::parse(R"({"apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "ns", "uid": "u1", "resourceVersion": "12",
                 "creationTimestamp": "2024-03-01T10:00:00Z", "labels": {"app": "web"},
                 "annotations": {"a": "b"}, "ownerReferences": [{"kind": "ReplicaSet", "name": "rs",
                 "uid": "u0", "controller": true}]},
    "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}},
                             "ports": [{"containerPort": 80, "protocol": "TCP"}]}],
             "nodeSelector": {"zone": "a"}, "priority": 0, "schedulerName": "default-scheduler",
             "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute",
                              "tolerationSeconds": 300}]},
    "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False"}]}})");
  Pod direct, parsed;
  ASSERT_TRUE(JsonToMessage(pod, &direct));
  ASSERT_TRUE(ParseWithProtobuf(pod, &parsed));
  EXPECT_TRUE(pb::util::MessageDifferencer::Equals(direct, parsed))
      << direct.DebugString() << "\nwant\n"
      << parsed.DebugString();
  EXPECT_EQ(direct.spec().containers(0).resources().requests().at("cpu"), "100m");
}

// Shapes left to protobuf's parser.
TEST(JsonToMessage, DeclinesWhatProtobufMustDecide) {
  Pod pod;
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"spec": {"nodeName": 5}})"), &pod));
  pod.Clear();
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"spec": {"priority": 1.5}})"), &pod));
  pod.Clear();
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"spec": {"containers": [null]}})"), &pod));
  pod.Clear();
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"metadata": {"name": "\u00e9"}})"), &pod));
  pod.Clear();
  EXPECT_FALSE(
      JsonToMessage(json::parse(R"({"spec": {"nodeName": "a", "node_name": "b"}})"), &pod));
  pod.Clear();
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"spec": {"priority": "3"}})"), &pod));
  pod.Clear();
  // An unknown field is ignored, but its text must be ASCII (the fallback's dump checks UTF-8).
  EXPECT_FALSE(JsonToMessage(json::parse(R"({"spec": {"template": {"x": ["\u00e9"]}}})"), &pod));
  pod.Clear();
  EXPECT_TRUE(JsonToMessage(json::parse(R"({"spec": {"template": {"x": ["e"]}}})"), &pod));
  pod.Clear();
  EXPECT_TRUE(JsonToMessage(json::parse(R"({"spec": {"node_name": "b"}})"), &pod));
  EXPECT_EQ(pod.spec().node_name(), "b");
}

}  // namespace
}  // namespace schedcheck::k8s
