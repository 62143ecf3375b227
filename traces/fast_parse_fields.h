// Internal to the hand-written record parser (fast_record_parser.h): the per-message Merge
// functions and the field readers they are written with.
//
// Merge(cursor, message) reads every field in `cursor` into `message` with protobuf's merge
// semantics (a scalar replaces, a repeated field appends, a message field merges into the one
// present, a map entry replaces the value of its key, a oneof member replaces the other members).
// It returns false as soon as it meets anything it does not handle: an unknown field or wire
// type, a non-ASCII string, a map entry not written as exactly key then value, a field of a type
// this parser leaves to protobuf (google.protobuf.Value), or malformed bytes. The message is then
// partly filled; the caller discards it and parses the bytes with protobuf instead.
#ifndef SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_
#define SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "google/protobuf/map.h"
#include "traces/k8s.pb.h"
#include "traces/trace.pb.h"
#include "traces/wire_cursor.h"

namespace schedcheck::trace::wire {

// k8s.proto (fast_k8s_parser.cc, fast_k8s_pod_parser.cc).
bool Merge(WireCursor c, k8s::OwnerReference* m);
bool Merge(WireCursor c, k8s::ObjectMeta* m);
bool Merge(WireCursor c, k8s::LabelSelectorRequirement* m);
bool Merge(WireCursor c, k8s::LabelSelector* m);
bool Merge(WireCursor c, k8s::NodeSelectorRequirement* m);
bool Merge(WireCursor c, k8s::NodeSelectorTerm* m);
bool Merge(WireCursor c, k8s::NodeSelector* m);
bool Merge(WireCursor c, k8s::PreferredSchedulingTerm* m);
bool Merge(WireCursor c, k8s::NodeAffinity* m);
bool Merge(WireCursor c, k8s::PodAffinityTerm* m);
bool Merge(WireCursor c, k8s::WeightedPodAffinityTerm* m);
bool Merge(WireCursor c, k8s::PodAffinity* m);
bool Merge(WireCursor c, k8s::PodAntiAffinity* m);
bool Merge(WireCursor c, k8s::Affinity* m);
bool Merge(WireCursor c, k8s::Toleration* m);
bool Merge(WireCursor c, k8s::TopologySpreadConstraint* m);
bool Merge(WireCursor c, k8s::ContainerPort* m);
bool Merge(WireCursor c, k8s::ResourceRequirements* m);
bool Merge(WireCursor c, k8s::Container* m);
bool Merge(WireCursor c, k8s::PersistentVolumeClaimVolumeSource* m);
bool Merge(WireCursor c, k8s::Volume* m);
bool Merge(WireCursor c, k8s::PodSchedulingGate* m);
bool Merge(WireCursor c, k8s::PodSpec* m);
bool Merge(WireCursor c, k8s::PodCondition* m);
bool Merge(WireCursor c, k8s::PodStatus* m);
bool Merge(WireCursor c, k8s::Pod* m);
bool Merge(WireCursor c, k8s::Taint* m);
bool Merge(WireCursor c, k8s::NodeSpec* m);
bool Merge(WireCursor c, k8s::ContainerImage* m);
bool Merge(WireCursor c, k8s::NodeCondition* m);
bool Merge(WireCursor c, k8s::NodeStatus* m);
bool Merge(WireCursor c, k8s::Node* m);
bool Merge(WireCursor c, k8s::Namespace* m);
bool Merge(WireCursor c, k8s::PriorityClass* m);
bool Merge(WireCursor c, k8s::PodDisruptionBudgetSpec* m);
bool Merge(WireCursor c, k8s::PodDisruptionBudgetStatus* m);
bool Merge(WireCursor c, k8s::PodDisruptionBudget* m);

// trace.proto (fast_record_parser.cc).
bool Merge(WireCursor c, ApiEvent* m);
bool Merge(WireCursor c, Attempt* m);
bool Merge(WireCursor c, QueueTransition* m);
bool Merge(WireCursor c, Binding* m);
bool Merge(WireCursor c, Record* m);

// Calls field(tag, cursor) for each field until the cursor is done; field reads the value and
// returns false when it does not handle the tag or the value.
template <typename Field>
inline bool ForEachField(WireCursor c, Field&& field) {
  uint32_t tag = 0;
  while (!c.done()) {
    if (!c.Tag(&tag) || !field(tag, c)) return false;
  }
  return true;
}

// A proto3 string field (ASCII only: see IsAscii).
inline bool ReadString(WireCursor& c, std::string* out) {
  std::string_view bytes;
  if (!c.Bytes(&bytes) || !IsAscii(bytes.data(), bytes.size())) return false;
  out->assign(bytes.data(), bytes.size());
  return true;
}

// A message field: its bytes merged into *m (from mutable_x() or add_x()).
template <typename Message>
inline bool ReadMessage(WireCursor& c, Message* m) {
  std::string_view bytes;
  return c.Bytes(&bytes) && Merge(WireCursor(bytes.data(), bytes.size()), m);
}

// One entry of a map<string, string>, written as key (field 1) then value (field 2), as every
// protobuf serializer writes map entries; other layouts are left to protobuf.
inline bool ReadStringMapEntry(WireCursor& c, google::protobuf::Map<std::string, std::string>* map) {
  std::string_view entry, key, value;
  if (!c.Bytes(&entry)) return false;
  WireCursor e(entry.data(), entry.size());
  uint32_t tag = 0;
  if (!e.Tag(&tag) || tag != LenTag(1) || !e.Bytes(&key)) return false;
  if (!e.Tag(&tag) || tag != LenTag(2) || !e.Bytes(&value) || !e.done()) return false;
  if (!IsAscii(key.data(), key.size()) || !IsAscii(value.data(), value.size())) return false;
  (*map)[key].assign(value.data(), value.size());
  return true;
}

// Scalars, converted the way protobuf's generated parser converts them: int32 and enums keep the
// low 32 bits of the varint, int64 all 64, bool is "not zero".
template <typename Message>
inline bool ReadInt32(WireCursor& c, Message* m, void (Message::*set)(int32_t)) {
  uint64_t v = 0;
  if (!c.Varint(&v)) return false;
  (m->*set)(static_cast<int32_t>(static_cast<uint32_t>(v)));
  return true;
}

template <typename Message>
inline bool ReadInt64(WireCursor& c, Message* m, void (Message::*set)(int64_t)) {
  uint64_t v = 0;
  if (!c.Varint(&v)) return false;
  (m->*set)(static_cast<int64_t>(v));
  return true;
}

template <typename Message>
inline bool ReadBool(WireCursor& c, Message* m, void (Message::*set)(bool)) {
  uint64_t v = 0;
  if (!c.Varint(&v)) return false;
  (m->*set)(v != 0);
  return true;
}

template <typename Message, typename Enum>
inline bool ReadEnum(WireCursor& c, Message* m, void (Message::*set)(Enum)) {
  uint64_t v = 0;
  if (!c.Varint(&v)) return false;
  (m->*set)(static_cast<Enum>(static_cast<int32_t>(static_cast<uint32_t>(v))));
  return true;
}

}  // namespace schedcheck::trace::wire

#endif  // SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_
