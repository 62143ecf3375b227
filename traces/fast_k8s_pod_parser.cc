// Merge functions for Pod and the messages only a pod holds. Field numbers follow
// traces/k8s.proto; fast_parse_fields.h states the contract.
#include "traces/fast_parse_fields.h"

namespace schedcheck::trace::wire {

using namespace schedcheck::k8s;  // NOLINT: the message names, one per function below

bool Merge(WireCursor c, Toleration* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_key());
      case LenTag(2): return ReadString(c, m->mutable_operator_());
      case LenTag(3): return ReadString(c, m->mutable_value());
      case LenTag(4): return ReadString(c, m->mutable_effect());
      case VarintTag(5): return ReadInt64(c, m, &Toleration::set_toleration_seconds);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, TopologySpreadConstraint* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    using T = TopologySpreadConstraint;
    switch (tag) {
      case VarintTag(1): return ReadInt32(c, m, &T::set_max_skew);
      case LenTag(2): return ReadString(c, m->mutable_topology_key());
      case LenTag(3): return ReadString(c, m->mutable_when_unsatisfiable());
      case LenTag(4): return ReadMessage(c, m->mutable_label_selector());
      case VarintTag(5): return ReadInt32(c, m, &T::set_min_domains);
      case LenTag(6): return ReadString(c, m->mutable_node_affinity_policy());
      case LenTag(7): return ReadString(c, m->mutable_node_taints_policy());
      case LenTag(8): return ReadString(c, m->add_match_label_keys());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, ContainerPort* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_name());
      case VarintTag(2): return ReadInt32(c, m, &ContainerPort::set_host_port);
      case VarintTag(3): return ReadInt32(c, m, &ContainerPort::set_container_port);
      case LenTag(4): return ReadString(c, m->mutable_protocol());
      case LenTag(5): return ReadString(c, m->mutable_host_ip());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, ResourceRequirements* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadStringMapEntry(c, m->mutable_requests());
      case LenTag(2): return ReadStringMapEntry(c, m->mutable_limits());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Container* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_name());
      case LenTag(2): return ReadString(c, m->mutable_image());
      case LenTag(3): return ReadMessage(c, m->mutable_resources());
      case LenTag(4): return ReadMessage(c, m->add_ports());
      case LenTag(5): return ReadString(c, m->mutable_restart_policy());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PersistentVolumeClaimVolumeSource* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_claim_name());
      case VarintTag(2): return ReadBool(c, m, &PersistentVolumeClaimVolumeSource::set_read_only);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Volume* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_name());
      case LenTag(2): return ReadMessage(c, m->mutable_persistent_volume_claim());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodSchedulingGate* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    return tag == LenTag(1) && ReadString(c, m->mutable_name());
  });
}

bool Merge(WireCursor c, PodSpec* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, m->add_containers());
      case LenTag(2): return ReadMessage(c, m->add_init_containers());
      case LenTag(3): return ReadString(c, m->mutable_node_name());
      case LenTag(4): return ReadStringMapEntry(c, m->mutable_node_selector());
      case LenTag(5): return ReadMessage(c, m->mutable_affinity());
      case LenTag(6): return ReadMessage(c, m->add_tolerations());
      case LenTag(7): return ReadMessage(c, m->add_topology_spread_constraints());
      case VarintTag(8): return ReadInt32(c, m, &PodSpec::set_priority);
      case LenTag(9): return ReadString(c, m->mutable_priority_class_name());
      case LenTag(10): return ReadString(c, m->mutable_preemption_policy());
      case LenTag(11): return ReadString(c, m->mutable_scheduler_name());
      case LenTag(12): return ReadMessage(c, m->add_scheduling_gates());
      case LenTag(13): return ReadStringMapEntry(c, m->mutable_overhead());
      case LenTag(14): return ReadMessage(c, m->add_volumes());
      case LenTag(15): return ReadMessage(c, m->mutable_resources());
      case LenTag(16): return ReadString(c, m->mutable_runtime_class_name());
      case VarintTag(17): return ReadInt64(c, m, &PodSpec::set_termination_grace_period_seconds);
      case VarintTag(18): return ReadBool(c, m, &PodSpec::set_host_network);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodCondition* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_type());
      case LenTag(2): return ReadString(c, m->mutable_status());
      case LenTag(3): return ReadString(c, m->mutable_reason());
      case LenTag(4): return ReadString(c, m->mutable_message());
      case LenTag(5): return ReadString(c, m->mutable_last_transition_time());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodStatus* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_phase());
      case LenTag(2): return ReadString(c, m->mutable_nominated_node_name());
      case LenTag(3): return ReadMessage(c, m->add_conditions());
      case LenTag(4): return ReadString(c, m->mutable_start_time());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Pod* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_api_version());
      case LenTag(2): return ReadString(c, m->mutable_kind());
      case LenTag(3): return ReadMessage(c, m->mutable_metadata());
      case LenTag(4): return ReadMessage(c, m->mutable_spec());
      case LenTag(5): return ReadMessage(c, m->mutable_status());
      default: return false;
    }
  });
}

}  // namespace schedcheck::trace::wire
