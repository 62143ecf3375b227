#include "traces/fast_record_parser.h"

#include <climits>

#include "traces/fast_parse_fields.h"

namespace schedcheck::trace {
namespace wire {

bool Assign(WireCursor c, ApiEvent* m, SpareMembers* spares);
bool Assign(WireCursor c, Record* m, SpareMembers* spares);

namespace {

// A pseudo field number noting that a member of the message's oneof was met.
constexpr int kOneof = 31;

// Moves the body of heap-allocated *r, if any, into `spares`.
void Detach(Record* r, SpareMembers* spares) {
  switch (r->body_case()) {
    case Record::kApi: spares->api.reset(r->release_api()); break;
    case Record::kAttempt: spares->attempt.reset(r->release_attempt()); break;
    case Record::kQueue: spares->queue.reset(r->release_queue()); break;
    case Record::kBinding: spares->binding.reset(r->release_binding()); break;
    case Record::BODY_NOT_SET: break;
  }
}

// Moves the object of heap-allocated *e, if any, into `spares`.
void Detach(ApiEvent* e, SpareMembers* spares) {
  switch (e->object_case()) {
    case ApiEvent::kPod: spares->pod.reset(e->release_pod()); break;
    case ApiEvent::kNode: spares->node.reset(e->release_node()); break;
    case ApiEvent::kNamespace: spares->namespace_.reset(e->release_namespace_()); break;
    case ApiEvent::kPriorityClass: spares->priority_class.reset(e->release_priority_class()); break;
    case ApiEvent::kPodDisruptionBudget:
      spares->pod_disruption_budget.reset(e->release_pod_disruption_budget());
      break;
    case ApiEvent::kService: spares->service.reset(e->release_service()); break;
    case ApiEvent::kReplicationController:
      spares->replication_controller.reset(e->release_replication_controller());
      break;
    case ApiEvent::kReplicaSet: spares->replica_set.reset(e->release_replica_set()); break;
    case ApiEvent::kStatefulSet: spares->stateful_set.reset(e->release_stateful_set()); break;
    case ApiEvent::OBJECT_NOT_SET: break;
  }
}

// Returns the oneof member of *owner that `has` tests, making it the set member: the one *owner
// holds, else a spare one (`spares` not nullptr: *owner is on the heap), else a new one.
template <typename Owner, typename Member>
Member* SwitchOneof(Owner* owner, SpareMembers* spares, std::unique_ptr<Member> SpareMembers::*slot,
                    bool (Owner::*has)() const, void (Owner::*set_allocated)(Member*),
                    Member* (Owner::*mutable_member)()) {
  if (spares != nullptr && !(owner->*has)()) {
    Detach(owner, spares);
    if (spares->*slot != nullptr) (owner->*set_allocated)((spares->*slot).release());
  }
  return (owner->*mutable_member)();
}

template <typename Message>
bool ReadMessage(WireCursor& c, Message* m, SpareMembers* spares) {
  std::string_view bytes;
  return c.Bytes(&bytes) && Assign(WireCursor(bytes.data(), bytes.size()), m, spares);
}

}  // namespace

bool Assign(WireCursor c, ApiEvent* m, SpareMembers* spares) {
  using E = ApiEvent;
  using S = SpareMembers;
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadEnum(c, m, &E::set_type);
      case LenTag(2):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::pod, &E::has_pod, &E::set_allocated_pod,
                                          &E::mutable_pod));
      case LenTag(3):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::node, &E::has_node, &E::set_allocated_node,
                                          &E::mutable_node));
      case LenTag(4):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::namespace_, &E::has_namespace_,
                                          &E::set_allocated_namespace_, &E::mutable_namespace_));
      case LenTag(5):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::priority_class, &E::has_priority_class,
                                          &E::set_allocated_priority_class,
                                          &E::mutable_priority_class));
      case LenTag(6):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::pod_disruption_budget,
                                          &E::has_pod_disruption_budget,
                                          &E::set_allocated_pod_disruption_budget,
                                          &E::mutable_pod_disruption_budget));
      case VarintTag(7): return seen.Add(7) && ReadBool(c, m, &E::set_during_attempt);
      case LenTag(8):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::service, &E::has_service, &E::set_allocated_service,
                                          &E::mutable_service));
      case LenTag(9):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::replication_controller, &E::has_replication_controller,
                                          &E::set_allocated_replication_controller,
                                          &E::mutable_replication_controller));
      case LenTag(10):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::replica_set, &E::has_replica_set,
                                          &E::set_allocated_replica_set, &E::mutable_replica_set));
      case LenTag(11):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::stateful_set, &E::has_stateful_set,
                                          &E::set_allocated_stateful_set, &E::mutable_stateful_set));
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_type();
  if (!seen.Has(kOneof)) spares != nullptr ? Detach(m, spares) : m->clear_object();
  if (!seen.Has(7)) m->clear_during_attempt();
  return true;
}

bool Assign(WireCursor c, Attempt* m) {
  SeenFields seen;
  RepeatedFill ties(m->mutable_ties());
  RepeatedFill unschedulable_plugins(m->mutable_unschedulable_plugins());
  RepeatedFill victims(m->mutable_victims());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_pod());
      case VarintTag(2): return seen.Add(2) && ReadInt32(c, m, &Attempt::set_attempt);
      case VarintTag(3): return seen.Add(3) && ReadEnum(c, m, &Attempt::set_result);
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_node());
      case LenTag(5): return ReadString(c, ties.Next());
      case LenTag(6): return ReadString(c, unschedulable_plugins.Next());
      case LenTag(7): return seen.Add(7) && ReadString(c, m->mutable_message());
      case LenTag(8): return seen.Add(8) && ReadString(c, m->mutable_nominated_node());
      case LenTag(9): return ReadString(c, victims.Next());
      case VarintTag(10): return seen.Add(10) && ReadBool(c, m, &Attempt::set_observed);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_pod();
  if (!seen.Has(2)) m->clear_attempt();
  if (!seen.Has(3)) m->clear_result();
  if (!seen.Has(4)) m->clear_node();
  ties.Finish();
  unschedulable_plugins.Finish();
  if (!seen.Has(7)) m->clear_message();
  if (!seen.Has(8)) m->clear_nominated_node();
  victims.Finish();
  if (!seen.Has(10)) m->clear_observed();
  return true;
}

bool Assign(WireCursor c, QueueTransition* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_pod());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_from());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_to());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_cause());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_pod();
  if (!seen.Has(2)) m->clear_from();
  if (!seen.Has(3)) m->clear_to();
  if (!seen.Has(4)) m->clear_cause();
  return true;
}

bool Assign(WireCursor c, Binding* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_pod());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_node());
      case VarintTag(3): return seen.Add(3) && ReadBool(c, m, &Binding::set_observed);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_pod();
  if (!seen.Has(2)) m->clear_node();
  if (!seen.Has(3)) m->clear_observed();
  return true;
}

bool Assign(WireCursor c, Record* m, SpareMembers* spares) {
  using R = Record;
  using S = SpareMembers;
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadInt64(c, m, &R::set_time_ns);
      case LenTag(2):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::api, &R::has_api, &R::set_allocated_api,
                                          &R::mutable_api),
                           spares);
      case LenTag(3):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::attempt, &R::has_attempt,
                                          &R::set_allocated_attempt, &R::mutable_attempt));
      case LenTag(4):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::queue, &R::has_queue,
                                          &R::set_allocated_queue, &R::mutable_queue));
      case LenTag(5):
        return seen.First(kOneof) &&
               ReadMessage(c, SwitchOneof(m, spares, &S::binding, &R::has_binding,
                                          &R::set_allocated_binding, &R::mutable_binding));
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_time_ns();
  if (!seen.Has(kOneof)) spares != nullptr ? Detach(m, spares) : m->clear_body();
  return true;
}

}  // namespace wire

RecordParser::RecordParser() : spares_(std::make_unique<wire::SpareMembers>()) {}
RecordParser::~RecordParser() = default;
RecordParser::RecordParser(RecordParser&&) noexcept = default;
RecordParser& RecordParser::operator=(RecordParser&&) noexcept = default;

bool RecordParser::ParseWithoutFallback(const char* data, size_t size, Record* record) {
  // Spare members are heap objects: only a heap-allocated record may take them.
  wire::SpareMembers* spares = record->GetArena() == nullptr ? spares_.get() : nullptr;
  return size <= INT_MAX && wire::Assign(wire::WireCursor(data, size), record, spares);
}

bool RecordParser::Parse(const char* data, size_t size, Record* record) {
  // A record protobuf parsed may hold unknown fields in sub-messages, which the hand-written path
  // would keep when it reuses them: start the next record into it from a cleared message.
  if (fell_back_into_ == record) {
    record->Clear();
    fell_back_into_ = nullptr;
  }
  if (ParseWithoutFallback(data, size, record)) return true;
  fell_back_into_ = record;
  spares_ = std::make_unique<wire::SpareMembers>();  // parts kept from it may hold unknown fields too
  return size <= INT_MAX && record->ParseFromArray(data, static_cast<int>(size));
}

}  // namespace schedcheck::trace
