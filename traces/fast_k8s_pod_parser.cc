// Assign functions for Pod and the messages only a pod holds. Field numbers follow
// traces/k8s.proto; fast_parse_fields.h states the contract. Each function reads the fields, then
// resets every field it did not meet.
#include "traces/fast_parse_fields.h"

namespace schedcheck::trace::wire {

using namespace schedcheck::k8s;  // NOLINT: the message names, one per function below

bool Assign(WireCursor c, Toleration* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_key());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_operator_());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_value());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_effect());
      case VarintTag(5): return seen.Add(5) && ReadInt64(c, m, &Toleration::set_toleration_seconds);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_key();
  if (!seen.Has(2)) m->clear_operator_();
  if (!seen.Has(3)) m->clear_value();
  if (!seen.Has(4)) m->clear_effect();
  if (!seen.Has(5)) m->clear_toleration_seconds();
  return true;
}

bool Assign(WireCursor c, TopologySpreadConstraint* m) {
  using T = TopologySpreadConstraint;
  SeenFields seen;
  RepeatedFill match_label_keys(m->mutable_match_label_keys());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadInt32(c, m, &T::set_max_skew);
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_topology_key());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_when_unsatisfiable());
      case LenTag(4): return seen.First(4) && ReadMessage(c, m->mutable_label_selector());
      case VarintTag(5): return seen.Add(5) && ReadInt32(c, m, &T::set_min_domains);
      case LenTag(6): return seen.Add(6) && ReadString(c, m->mutable_node_affinity_policy());
      case LenTag(7): return seen.Add(7) && ReadString(c, m->mutable_node_taints_policy());
      case LenTag(8): return ReadString(c, match_label_keys.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_max_skew();
  if (!seen.Has(2)) m->clear_topology_key();
  if (!seen.Has(3)) m->clear_when_unsatisfiable();
  if (!seen.Has(4)) m->clear_label_selector();
  if (!seen.Has(5)) m->clear_min_domains();
  if (!seen.Has(6)) m->clear_node_affinity_policy();
  if (!seen.Has(7)) m->clear_node_taints_policy();
  match_label_keys.Finish();
  return true;
}

bool Assign(WireCursor c, ContainerPort* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_name());
      case VarintTag(2): return seen.Add(2) && ReadInt32(c, m, &ContainerPort::set_host_port);
      case VarintTag(3): return seen.Add(3) && ReadInt32(c, m, &ContainerPort::set_container_port);
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_protocol());
      case LenTag(5): return seen.Add(5) && ReadString(c, m->mutable_host_ip());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_name();
  if (!seen.Has(2)) m->clear_host_port();
  if (!seen.Has(3)) m->clear_container_port();
  if (!seen.Has(4)) m->clear_protocol();
  if (!seen.Has(5)) m->clear_host_ip();
  return true;
}

bool Assign(WireCursor c, ResourceRequirements* m) {
  StringMapFill requests(m->mutable_requests()), limits(m->mutable_limits());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return requests.Read(c);
      case LenTag(2): return limits.Read(c);
      default: return false;
    }
  });
  if (!ok) return false;
  requests.Finish();
  limits.Finish();
  return true;
}

bool Assign(WireCursor c, Container* m) {
  SeenFields seen;
  RepeatedFill ports(m->mutable_ports());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_name());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_image());
      case LenTag(3): return seen.First(3) && ReadMessage(c, m->mutable_resources());
      case LenTag(4): return ReadMessage(c, ports.Next());
      case LenTag(5): return seen.Add(5) && ReadString(c, m->mutable_restart_policy());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_name();
  if (!seen.Has(2)) m->clear_image();
  if (!seen.Has(3)) m->clear_resources();
  ports.Finish();
  if (!seen.Has(5)) m->clear_restart_policy();
  return true;
}

bool Assign(WireCursor c, PersistentVolumeClaimVolumeSource* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_claim_name());
      case VarintTag(2):
        return seen.Add(2) && ReadBool(c, m, &PersistentVolumeClaimVolumeSource::set_read_only);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_claim_name();
  if (!seen.Has(2)) m->clear_read_only();
  return true;
}

bool Assign(WireCursor c, Volume* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_name());
      case LenTag(2): return seen.First(2) && ReadMessage(c, m->mutable_persistent_volume_claim());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_name();
  if (!seen.Has(2)) m->clear_persistent_volume_claim();
  return true;
}

bool Assign(WireCursor c, PodSchedulingGate* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    return tag == LenTag(1) && seen.Add(1) && ReadString(c, m->mutable_name());
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_name();
  return true;
}

bool Assign(WireCursor c, PodSpec* m) {
  SeenFields seen;
  RepeatedFill containers(m->mutable_containers());
  RepeatedFill init_containers(m->mutable_init_containers());
  StringMapFill node_selector(m->mutable_node_selector()), overhead(m->mutable_overhead());
  RepeatedFill tolerations(m->mutable_tolerations());
  RepeatedFill topology_spread_constraints(m->mutable_topology_spread_constraints());
  RepeatedFill scheduling_gates(m->mutable_scheduling_gates());
  RepeatedFill volumes(m->mutable_volumes());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, containers.Next());
      case LenTag(2): return ReadMessage(c, init_containers.Next());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_node_name());
      case LenTag(4): return node_selector.Read(c);
      case LenTag(5): return seen.First(5) && ReadMessage(c, m->mutable_affinity());
      case LenTag(6): return ReadMessage(c, tolerations.Next());
      case LenTag(7): return ReadMessage(c, topology_spread_constraints.Next());
      case VarintTag(8): return seen.Add(8) && ReadInt32(c, m, &PodSpec::set_priority);
      case LenTag(9): return seen.Add(9) && ReadString(c, m->mutable_priority_class_name());
      case LenTag(10): return seen.Add(10) && ReadString(c, m->mutable_preemption_policy());
      case LenTag(11): return seen.Add(11) && ReadString(c, m->mutable_scheduler_name());
      case LenTag(12): return ReadMessage(c, scheduling_gates.Next());
      case LenTag(13): return overhead.Read(c);
      case LenTag(14): return ReadMessage(c, volumes.Next());
      case LenTag(15): return seen.First(15) && ReadMessage(c, m->mutable_resources());
      case LenTag(16): return seen.Add(16) && ReadString(c, m->mutable_runtime_class_name());
      case VarintTag(17):
        return seen.Add(17) && ReadInt64(c, m, &PodSpec::set_termination_grace_period_seconds);
      case VarintTag(18): return seen.Add(18) && ReadBool(c, m, &PodSpec::set_host_network);
      default: return false;
    }
  });
  if (!ok) return false;
  containers.Finish();
  init_containers.Finish();
  if (!seen.Has(3)) m->clear_node_name();
  node_selector.Finish();
  if (!seen.Has(5)) m->clear_affinity();
  tolerations.Finish();
  topology_spread_constraints.Finish();
  if (!seen.Has(8)) m->clear_priority();
  if (!seen.Has(9)) m->clear_priority_class_name();
  if (!seen.Has(10)) m->clear_preemption_policy();
  if (!seen.Has(11)) m->clear_scheduler_name();
  scheduling_gates.Finish();
  overhead.Finish();
  volumes.Finish();
  if (!seen.Has(15)) m->clear_resources();
  if (!seen.Has(16)) m->clear_runtime_class_name();
  if (!seen.Has(17)) m->clear_termination_grace_period_seconds();
  if (!seen.Has(18)) m->clear_host_network();
  return true;
}

bool Assign(WireCursor c, PodCondition* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_type());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_status());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_reason());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_message());
      case LenTag(5): return seen.Add(5) && ReadString(c, m->mutable_last_transition_time());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_type();
  if (!seen.Has(2)) m->clear_status();
  if (!seen.Has(3)) m->clear_reason();
  if (!seen.Has(4)) m->clear_message();
  if (!seen.Has(5)) m->clear_last_transition_time();
  return true;
}

bool Assign(WireCursor c, PodStatus* m) {
  SeenFields seen;
  RepeatedFill conditions(m->mutable_conditions());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_phase());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_nominated_node_name());
      case LenTag(3): return ReadMessage(c, conditions.Next());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_start_time());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_phase();
  if (!seen.Has(2)) m->clear_nominated_node_name();
  conditions.Finish();
  if (!seen.Has(4)) m->clear_start_time();
  return true;
}

bool Assign(WireCursor c, Pod* m) { return AssignApiObject(c, m); }

}  // namespace schedcheck::trace::wire
