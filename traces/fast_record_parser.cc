#include "traces/fast_record_parser.h"

#include <climits>

#include "traces/fast_parse_fields.h"

namespace schedcheck::trace {
namespace wire {

bool Merge(WireCursor c, ApiEvent* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return ReadEnum(c, m, &ApiEvent::set_type);
      case LenTag(2): return ReadMessage(c, m->mutable_pod());
      case LenTag(3): return ReadMessage(c, m->mutable_node());
      case LenTag(4): return ReadMessage(c, m->mutable_namespace_());
      case LenTag(5): return ReadMessage(c, m->mutable_priority_class());
      case LenTag(6): return ReadMessage(c, m->mutable_pod_disruption_budget());
      case VarintTag(7): return ReadBool(c, m, &ApiEvent::set_during_attempt);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Attempt* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_pod());
      case VarintTag(2): return ReadInt32(c, m, &Attempt::set_attempt);
      case VarintTag(3): return ReadEnum(c, m, &Attempt::set_result);
      case LenTag(4): return ReadString(c, m->mutable_node());
      case LenTag(5): return ReadString(c, m->add_ties());
      case LenTag(6): return ReadString(c, m->add_unschedulable_plugins());
      case LenTag(7): return ReadString(c, m->mutable_message());
      case LenTag(8): return ReadString(c, m->mutable_nominated_node());
      case LenTag(9): return ReadString(c, m->add_victims());
      case VarintTag(10): return ReadBool(c, m, &Attempt::set_observed);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, QueueTransition* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_pod());
      case LenTag(2): return ReadString(c, m->mutable_from());
      case LenTag(3): return ReadString(c, m->mutable_to());
      case LenTag(4): return ReadString(c, m->mutable_cause());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Binding* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_pod());
      case LenTag(2): return ReadString(c, m->mutable_node());
      case VarintTag(3): return ReadBool(c, m, &Binding::set_observed);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Record* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return ReadInt64(c, m, &Record::set_time_ns);
      case LenTag(2): return ReadMessage(c, m->mutable_api());
      case LenTag(3): return ReadMessage(c, m->mutable_attempt());
      case LenTag(4): return ReadMessage(c, m->mutable_queue());
      case LenTag(5): return ReadMessage(c, m->mutable_binding());
      default: return false;
    }
  });
}

}  // namespace wire

bool FastMergeRecord(const char* data, size_t size, Record* record) {
  return size <= INT_MAX && wire::Merge(wire::WireCursor(data, size), record);
}

bool ParseRecord(const char* data, size_t size, Record* record) {
  record->Clear();
  if (FastMergeRecord(data, size, record)) return true;
  return size <= INT_MAX && record->ParseFromArray(data, static_cast<int>(size));
}

}  // namespace schedcheck::trace
