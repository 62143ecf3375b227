// Internal to the hand-written record parser (fast_record_parser.h): the per-message Assign
// functions and the field helpers they are written with.
//
// Assign(cursor, message) makes `message` equal to the message serialized in `cursor`, whatever
// it held before, reusing what it already holds: strings keep their buffers, present
// sub-messages and repeated elements are assigned in place, and a map whose keys are the same as
// before only has its values overwritten. That reuse is the point: decoding record after record
// into one Record then allocates almost nothing. Each Assign therefore notes which fields it met
// and, at the end, resets every field it did not meet (a field missing from that list would leak
// the previous record's value: fast_record_parser_test.cc reuses one Record over random records
// that fill every field, which catches it).
//
// Assign returns false as soon as it meets anything it does not handle: an unknown field or wire
// type, a non-ASCII string, a map entry not written as exactly key then value, a sub-message or
// oneof written more than once (protobuf would merge them), a google.protobuf.Value field, or
// malformed bytes. The message is then partly assigned; the caller parses the bytes again with
// protobuf, which clears it first.
#ifndef SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_
#define SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "google/protobuf/map.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "reference/k8s/k8s.pb.h"
#include "traces/trace.pb.h"
#include "traces/wire_cursor.h"

namespace schedcheck::trace::wire {

// Oneof members detached from a heap-allocated Record when a record of another kind replaced
// them, kept to be reattached by the next record of their kind instead of being reallocated.
struct SpareMembers {
  std::unique_ptr<ApiEvent> api;
  std::unique_ptr<Attempt> attempt;
  std::unique_ptr<QueueTransition> queue;
  std::unique_ptr<Binding> binding;
  std::unique_ptr<k8s::Pod> pod;
  std::unique_ptr<k8s::Node> node;
  std::unique_ptr<k8s::Namespace> namespace_;
  std::unique_ptr<k8s::PriorityClass> priority_class;
  std::unique_ptr<k8s::PodDisruptionBudget> pod_disruption_budget;
  std::unique_ptr<k8s::Service> service;
  std::unique_ptr<k8s::ReplicationController> replication_controller;
  std::unique_ptr<k8s::ReplicaSet> replica_set;
  std::unique_ptr<k8s::StatefulSet> stateful_set;
};

// k8s.proto (fast_k8s_parser.cc, fast_k8s_pod_parser.cc).
bool Assign(WireCursor c, k8s::OwnerReference* m);
bool Assign(WireCursor c, k8s::ObjectMeta* m);
bool Assign(WireCursor c, k8s::LabelSelectorRequirement* m);
bool Assign(WireCursor c, k8s::LabelSelector* m);
bool Assign(WireCursor c, k8s::NodeSelectorRequirement* m);
bool Assign(WireCursor c, k8s::NodeSelectorTerm* m);
bool Assign(WireCursor c, k8s::NodeSelector* m);
bool Assign(WireCursor c, k8s::PreferredSchedulingTerm* m);
bool Assign(WireCursor c, k8s::NodeAffinity* m);
bool Assign(WireCursor c, k8s::PodAffinityTerm* m);
bool Assign(WireCursor c, k8s::WeightedPodAffinityTerm* m);
bool Assign(WireCursor c, k8s::PodAffinity* m);
bool Assign(WireCursor c, k8s::PodAntiAffinity* m);
bool Assign(WireCursor c, k8s::Affinity* m);
bool Assign(WireCursor c, k8s::Toleration* m);
bool Assign(WireCursor c, k8s::TopologySpreadConstraint* m);
bool Assign(WireCursor c, k8s::ContainerPort* m);
bool Assign(WireCursor c, k8s::ResourceRequirements* m);
bool Assign(WireCursor c, k8s::Container* m);
bool Assign(WireCursor c, k8s::PersistentVolumeClaimVolumeSource* m);
bool Assign(WireCursor c, k8s::Volume* m);
bool Assign(WireCursor c, k8s::PodSchedulingGate* m);
bool Assign(WireCursor c, k8s::PodSpec* m);
bool Assign(WireCursor c, k8s::PodCondition* m);
bool Assign(WireCursor c, k8s::PodStatus* m);
bool Assign(WireCursor c, k8s::Pod* m);
bool Assign(WireCursor c, k8s::Taint* m);
bool Assign(WireCursor c, k8s::NodeSpec* m);
bool Assign(WireCursor c, k8s::ContainerImage* m);
bool Assign(WireCursor c, k8s::NodeCondition* m);
bool Assign(WireCursor c, k8s::NodeStatus* m);
bool Assign(WireCursor c, k8s::Node* m);
bool Assign(WireCursor c, k8s::Namespace* m);
bool Assign(WireCursor c, k8s::PriorityClass* m);
bool Assign(WireCursor c, k8s::PodDisruptionBudgetSpec* m);
bool Assign(WireCursor c, k8s::PodDisruptionBudgetStatus* m);
bool Assign(WireCursor c, k8s::PodDisruptionBudget* m);
bool Assign(WireCursor c, k8s::ServiceSpec* m);
bool Assign(WireCursor c, k8s::Service* m);
bool Assign(WireCursor c, k8s::ReplicationControllerSpec* m);
bool Assign(WireCursor c, k8s::ReplicationController* m);
bool Assign(WireCursor c, k8s::SelectorSpec* m);
bool Assign(WireCursor c, k8s::ReplicaSet* m);
bool Assign(WireCursor c, k8s::StatefulSet* m);

// trace.proto (fast_record_parser.cc; Record and ApiEvent there take SpareMembers too).
bool Assign(WireCursor c, Attempt* m);
bool Assign(WireCursor c, QueueTransition* m);
bool Assign(WireCursor c, Binding* m);

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

// The field numbers (all below 32) met so far in one message.
class SeenFields {
 public:
  // Notes `field`; true. For fields where a repeat simply replaces (scalars, strings).
  bool Add(int field) {
    bits_ |= 1u << field;
    return true;
  }
  // Notes `field`; false if it was met before (a repeated sub-message merges: left to protobuf).
  bool First(int field) {
    const bool first = !Has(field);
    bits_ |= 1u << field;
    return first;
  }
  bool Has(int field) const { return (bits_ >> field & 1u) != 0; }

 private:
  uint32_t bits_ = 0;
};

// A proto3 string field (ASCII only: see IsAscii), replacing *out.
inline bool ReadString(WireCursor& c, std::string* out) {
  std::string_view bytes;
  if (!c.Bytes(&bytes) || !IsAscii(bytes.data(), bytes.size())) return false;
  out->assign(bytes.data(), bytes.size());
  return true;
}

// A message field assigned into *m (from mutable_x() or RepeatedFill::Next()).
template <typename Message>
inline bool ReadMessage(WireCursor& c, Message* m) {
  std::string_view bytes;
  return c.Bytes(&bytes) && Assign(WireCursor(bytes.data(), bytes.size()), m);
}

// The shape of a top-level API object: apiVersion = 1, kind = 2, metadata = 3, spec = 4,
// status = 5 (Node, Pod, PodDisruptionBudget); without status for the selector objects
// (Service, ReplicationController, ReplicaSet, StatefulSet), which then reject field 5.
template <typename Object, bool kHasStatus = true>
bool AssignApiObject(WireCursor c, Object* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_api_version());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_kind());
      case LenTag(3): return seen.First(3) && ReadMessage(c, m->mutable_metadata());
      case LenTag(4): return seen.First(4) && ReadMessage(c, m->mutable_spec());
      case LenTag(5):
        if constexpr (kHasStatus) return seen.First(5) && ReadMessage(c, m->mutable_status());
        return false;
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_api_version();
  if (!seen.Has(2)) m->clear_kind();
  if (!seen.Has(3)) m->clear_metadata();
  if (!seen.Has(4)) m->clear_spec();
  if constexpr (kHasStatus) {
    if (!seen.Has(5)) m->clear_status();
  }
  return true;
}

// Assigns a repeated field element by element, reusing the elements it already has; Finish drops
// the elements left over from before (cleared and kept for reuse by RepeatedPtrField).
template <typename T>
class RepeatedFill {
 public:
  explicit RepeatedFill(google::protobuf::RepeatedPtrField<T>* field) : field_(field) {}
  T* Next() { return used_ < field_->size() ? field_->Mutable(used_++) : (++used_, field_->Add()); }
  void Finish() {
    while (field_->size() > used_) field_->RemoveLast();
  }

 private:
  google::protobuf::RepeatedPtrField<T>* field_;
  int used_ = 0;
};

// Assigns a map<string, string> from its entries. The entries are collected (as views of the
// input) and applied by Finish: when the map already holds exactly those keys, only the values
// are overwritten (no allocation); otherwise it is cleared and refilled. A map with more entries
// than fit is refilled as it is read.
class StringMapFill {
 public:
  using StringMap = google::protobuf::Map<std::string, std::string>;
  explicit StringMapFill(StringMap* map) : map_(map) {}

  // One entry, written as key (field 1) then value (field 2), as every protobuf serializer writes
  // map entries; other layouts are left to protobuf.
  bool Read(WireCursor& c) {
    std::string_view entry, key, value;
    if (!c.Bytes(&entry)) return false;
    WireCursor e(entry.data(), entry.size());
    uint32_t tag = 0;
    if (!e.Tag(&tag) || tag != LenTag(1) || !e.Bytes(&key)) return false;
    if (!e.Tag(&tag) || tag != LenTag(2) || !e.Bytes(&value) || !e.done()) return false;
    if (!IsAscii(key.data(), key.size()) || !IsAscii(value.data(), value.size())) return false;
    if (refilling_) {
      Put(key, value);
    } else if (pending_ < kMaxPending) {
      entries_[pending_++] = {key.data(), key.size(), value.data(), value.size()};
    } else {
      Refill();
      Put(key, value);
    }
    return true;
  }

  // Applies the collected entries (a map field not met at all ends empty).
  void Finish() {
    if (refilling_) return;
    if (map_->size() == static_cast<size_t>(pending_) && KeysDistinct()) {
      bool all_found = true;
      for (int i = 0; i < pending_ && all_found; ++i) {
        auto it = map_->find(entries_[i].Key());
        if (it == map_->end()) {
          all_found = false;
        } else {
          it->second.assign(entries_[i].value, entries_[i].value_size);
        }
      }
      if (all_found) return;
    }
    Refill();
  }

 private:
  static constexpr int kMaxPending = 16;
  // Plain pointers and sizes, not string_views: the array is then left uninitialized rather than
  // zeroed on every construction (one StringMapFill per map field per message).
  struct Entry {
    const char* key;
    size_t key_size;
    const char* value;
    size_t value_size;
    std::string_view Key() const { return {key, key_size}; }
    std::string_view Value() const { return {value, value_size}; }
  };

  // A later entry with the same key replaces an earlier one, as in protobuf.
  void Put(std::string_view key, std::string_view value) {
    (*map_)[key].assign(value.data(), value.size());
  }
  void Refill() {
    map_->clear();
    for (int i = 0; i < pending_; ++i) Put(entries_[i].Key(), entries_[i].Value());
    refilling_ = true;
  }
  bool KeysDistinct() const {
    for (int i = 1; i < pending_; ++i) {
      for (int j = 0; j < i; ++j) {
        if (entries_[i].Key() == entries_[j].Key()) return false;
      }
    }
    return true;
  }

  StringMap* map_;
  int pending_ = 0;
  bool refilling_ = false;
  Entry entries_[kMaxPending];
};

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
