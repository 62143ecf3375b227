// Assign functions for the k8s.proto messages shared by several objects (metadata, selectors,
// affinity) and for Node, Namespace, PriorityClass and PodDisruptionBudget. Field numbers follow
// traces/k8s.proto; fast_parse_fields.h states the contract. Each function reads the fields, then
// resets every field it did not meet.
#include "traces/fast_parse_fields.h"

namespace schedcheck::trace::wire {

using namespace schedcheck::k8s;  // NOLINT: the message names, one per function below

bool Assign(WireCursor c, OwnerReference* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_api_version());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_kind());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_name());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_uid());
      case VarintTag(5): return seen.Add(5) && ReadBool(c, m, &OwnerReference::set_controller);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_api_version();
  if (!seen.Has(2)) m->clear_kind();
  if (!seen.Has(3)) m->clear_name();
  if (!seen.Has(4)) m->clear_uid();
  if (!seen.Has(5)) m->clear_controller();
  return true;
}

bool Assign(WireCursor c, ObjectMeta* m) {
  SeenFields seen;
  StringMapFill labels(m->mutable_labels()), annotations(m->mutable_annotations());
  RepeatedFill owner_references(m->mutable_owner_references());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_name());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_namespace_());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_uid());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_resource_version());
      case LenTag(5): return labels.Read(c);
      case LenTag(6): return annotations.Read(c);
      case LenTag(7): return seen.Add(7) && ReadString(c, m->mutable_creation_timestamp());
      case LenTag(8): return seen.Add(8) && ReadString(c, m->mutable_deletion_timestamp());
      case LenTag(9): return ReadMessage(c, owner_references.Next());
      case LenTag(10): return seen.Add(10) && ReadString(c, m->mutable_generate_name());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_name();
  if (!seen.Has(2)) m->clear_namespace_();
  if (!seen.Has(3)) m->clear_uid();
  if (!seen.Has(4)) m->clear_resource_version();
  labels.Finish();
  annotations.Finish();
  if (!seen.Has(7)) m->clear_creation_timestamp();
  if (!seen.Has(8)) m->clear_deletion_timestamp();
  owner_references.Finish();
  if (!seen.Has(10)) m->clear_generate_name();
  return true;
}

// LabelSelectorRequirement and NodeSelectorRequirement have the same fields.
template <typename Requirement>
bool AssignRequirement(WireCursor c, Requirement* m) {
  SeenFields seen;
  RepeatedFill values(m->mutable_values());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_key());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_operator_());
      case LenTag(3): return ReadString(c, values.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_key();
  if (!seen.Has(2)) m->clear_operator_();
  values.Finish();
  return true;
}

bool Assign(WireCursor c, LabelSelectorRequirement* m) { return AssignRequirement(c, m); }
bool Assign(WireCursor c, NodeSelectorRequirement* m) { return AssignRequirement(c, m); }

bool Assign(WireCursor c, LabelSelector* m) {
  StringMapFill match_labels(m->mutable_match_labels());
  RepeatedFill match_expressions(m->mutable_match_expressions());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return match_labels.Read(c);
      case LenTag(2): return ReadMessage(c, match_expressions.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  match_labels.Finish();
  match_expressions.Finish();
  return true;
}

bool Assign(WireCursor c, NodeSelectorTerm* m) {
  RepeatedFill match_expressions(m->mutable_match_expressions());
  RepeatedFill match_fields(m->mutable_match_fields());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, match_expressions.Next());
      case LenTag(2): return ReadMessage(c, match_fields.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  match_expressions.Finish();
  match_fields.Finish();
  return true;
}

bool Assign(WireCursor c, NodeSelector* m) {
  RepeatedFill terms(m->mutable_node_selector_terms());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    return tag == LenTag(1) && ReadMessage(c, terms.Next());
  });
  if (!ok) return false;
  terms.Finish();
  return true;
}

bool Assign(WireCursor c, PreferredSchedulingTerm* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadInt32(c, m, &PreferredSchedulingTerm::set_weight);
      case LenTag(2): return seen.First(2) && ReadMessage(c, m->mutable_preference());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_weight();
  if (!seen.Has(2)) m->clear_preference();
  return true;
}

bool Assign(WireCursor c, NodeAffinity* m) {
  SeenFields seen;
  RepeatedFill preferred(m->mutable_preferred_during_scheduling_ignored_during_execution());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1):
        return seen.First(1) &&
               ReadMessage(c, m->mutable_required_during_scheduling_ignored_during_execution());
      case LenTag(2): return ReadMessage(c, preferred.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_required_during_scheduling_ignored_during_execution();
  preferred.Finish();
  return true;
}

bool Assign(WireCursor c, PodAffinityTerm* m) {
  SeenFields seen;
  RepeatedFill namespaces(m->mutable_namespaces());
  RepeatedFill match_label_keys(m->mutable_match_label_keys());
  RepeatedFill mismatch_label_keys(m->mutable_mismatch_label_keys());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.First(1) && ReadMessage(c, m->mutable_label_selector());
      case LenTag(2): return ReadString(c, namespaces.Next());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_topology_key());
      case LenTag(4): return seen.First(4) && ReadMessage(c, m->mutable_namespace_selector());
      case LenTag(5): return ReadString(c, match_label_keys.Next());
      case LenTag(6): return ReadString(c, mismatch_label_keys.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_label_selector();
  namespaces.Finish();
  if (!seen.Has(3)) m->clear_topology_key();
  if (!seen.Has(4)) m->clear_namespace_selector();
  match_label_keys.Finish();
  mismatch_label_keys.Finish();
  return true;
}

bool Assign(WireCursor c, WeightedPodAffinityTerm* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadInt32(c, m, &WeightedPodAffinityTerm::set_weight);
      case LenTag(2): return seen.First(2) && ReadMessage(c, m->mutable_pod_affinity_term());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_weight();
  if (!seen.Has(2)) m->clear_pod_affinity_term();
  return true;
}

// PodAffinity and PodAntiAffinity have the same fields.
template <typename AffinityMessage>
bool AssignAffinityTerms(WireCursor c, AffinityMessage* m) {
  RepeatedFill required(m->mutable_required_during_scheduling_ignored_during_execution());
  RepeatedFill preferred(m->mutable_preferred_during_scheduling_ignored_during_execution());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, required.Next());
      case LenTag(2): return ReadMessage(c, preferred.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  required.Finish();
  preferred.Finish();
  return true;
}

bool Assign(WireCursor c, PodAffinity* m) { return AssignAffinityTerms(c, m); }
bool Assign(WireCursor c, PodAntiAffinity* m) { return AssignAffinityTerms(c, m); }

bool Assign(WireCursor c, Affinity* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.First(1) && ReadMessage(c, m->mutable_node_affinity());
      case LenTag(2): return seen.First(2) && ReadMessage(c, m->mutable_pod_affinity());
      case LenTag(3): return seen.First(3) && ReadMessage(c, m->mutable_pod_anti_affinity());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_node_affinity();
  if (!seen.Has(2)) m->clear_pod_affinity();
  if (!seen.Has(3)) m->clear_pod_anti_affinity();
  return true;
}

// --- Node -------------------------------------------------------------------------------------

bool Assign(WireCursor c, Taint* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_key());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_value());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_effect());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_time_added());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_key();
  if (!seen.Has(2)) m->clear_value();
  if (!seen.Has(3)) m->clear_effect();
  if (!seen.Has(4)) m->clear_time_added();
  return true;
}

bool Assign(WireCursor c, NodeSpec* m) {
  SeenFields seen;
  RepeatedFill taints(m->mutable_taints());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadBool(c, m, &NodeSpec::set_unschedulable);
      case LenTag(2): return ReadMessage(c, taints.Next());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_provider_id());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_pod_cidr());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_unschedulable();
  taints.Finish();
  if (!seen.Has(3)) m->clear_provider_id();
  if (!seen.Has(4)) m->clear_pod_cidr();
  return true;
}

bool Assign(WireCursor c, ContainerImage* m) {
  SeenFields seen;
  RepeatedFill names(m->mutable_names());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, names.Next());
      case VarintTag(2): return seen.Add(2) && ReadInt64(c, m, &ContainerImage::set_size_bytes);
      default: return false;
    }
  });
  if (!ok) return false;
  names.Finish();
  if (!seen.Has(2)) m->clear_size_bytes();
  return true;
}

bool Assign(WireCursor c, NodeCondition* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_type());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_status());
      case LenTag(3): return seen.Add(3) && ReadString(c, m->mutable_reason());
      case LenTag(4): return seen.Add(4) && ReadString(c, m->mutable_message());
      case LenTag(5): return seen.Add(5) && ReadString(c, m->mutable_last_transition_time());
      case LenTag(6): return seen.Add(6) && ReadString(c, m->mutable_last_heartbeat_time());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_type();
  if (!seen.Has(2)) m->clear_status();
  if (!seen.Has(3)) m->clear_reason();
  if (!seen.Has(4)) m->clear_message();
  if (!seen.Has(5)) m->clear_last_transition_time();
  if (!seen.Has(6)) m->clear_last_heartbeat_time();
  return true;
}

bool Assign(WireCursor c, NodeStatus* m) {
  StringMapFill capacity(m->mutable_capacity()), allocatable(m->mutable_allocatable());
  RepeatedFill images(m->mutable_images());
  RepeatedFill conditions(m->mutable_conditions());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return capacity.Read(c);
      case LenTag(2): return allocatable.Read(c);
      case LenTag(3): return ReadMessage(c, images.Next());
      case LenTag(4): return ReadMessage(c, conditions.Next());
      default: return false;
    }
  });
  if (!ok) return false;
  capacity.Finish();
  allocatable.Finish();
  images.Finish();
  conditions.Finish();
  return true;
}

bool Assign(WireCursor c, Node* m) { return AssignApiObject(c, m); }

// --- Namespace, PriorityClass, PodDisruptionBudget --------------------------------------------

bool Assign(WireCursor c, Namespace* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_api_version());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_kind());
      case LenTag(3): return seen.First(3) && ReadMessage(c, m->mutable_metadata());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_api_version();
  if (!seen.Has(2)) m->clear_kind();
  if (!seen.Has(3)) m->clear_metadata();
  return true;
}

bool Assign(WireCursor c, PriorityClass* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return seen.Add(1) && ReadString(c, m->mutable_api_version());
      case LenTag(2): return seen.Add(2) && ReadString(c, m->mutable_kind());
      case LenTag(3): return seen.First(3) && ReadMessage(c, m->mutable_metadata());
      case VarintTag(4): return seen.Add(4) && ReadInt32(c, m, &PriorityClass::set_value);
      case VarintTag(5): return seen.Add(5) && ReadBool(c, m, &PriorityClass::set_global_default);
      case LenTag(6): return seen.Add(6) && ReadString(c, m->mutable_preemption_policy());
      case LenTag(7): return seen.Add(7) && ReadString(c, m->mutable_description());
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_api_version();
  if (!seen.Has(2)) m->clear_kind();
  if (!seen.Has(3)) m->clear_metadata();
  if (!seen.Has(4)) m->clear_value();
  if (!seen.Has(5)) m->clear_global_default();
  if (!seen.Has(6)) m->clear_preemption_policy();
  if (!seen.Has(7)) m->clear_description();
  return true;
}

// min_available and max_unavailable (fields 1 and 3) are google.protobuf.Value: left to protobuf
// (so they end cleared here whenever this succeeds).
bool Assign(WireCursor c, PodDisruptionBudgetSpec* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    return tag == LenTag(2) && seen.First(2) && ReadMessage(c, m->mutable_selector());
  });
  if (!ok) return false;
  m->clear_min_available();
  if (!seen.Has(2)) m->clear_selector();
  m->clear_max_unavailable();
  return true;
}

bool Assign(WireCursor c, PodDisruptionBudgetStatus* m) {
  using S = PodDisruptionBudgetStatus;
  SeenFields seen;
  StringMapFill disrupted_pods(m->mutable_disrupted_pods());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return seen.Add(1) && ReadInt32(c, m, &S::set_disruptions_allowed);
      case VarintTag(2): return seen.Add(2) && ReadInt32(c, m, &S::set_current_healthy);
      case VarintTag(3): return seen.Add(3) && ReadInt32(c, m, &S::set_desired_healthy);
      case VarintTag(4): return seen.Add(4) && ReadInt32(c, m, &S::set_expected_pods);
      case LenTag(5): return disrupted_pods.Read(c);
      default: return false;
    }
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_disruptions_allowed();
  if (!seen.Has(2)) m->clear_current_healthy();
  if (!seen.Has(3)) m->clear_desired_healthy();
  if (!seen.Has(4)) m->clear_expected_pods();
  disrupted_pods.Finish();
  return true;
}

bool Assign(WireCursor c, PodDisruptionBudget* m) { return AssignApiObject(c, m); }

// --- Selector objects: Service, ReplicationController, ReplicaSet, StatefulSet ---------------

namespace {

// A spec whose only field is the map<string, string> selector = 1.
template <typename Spec>
bool AssignMapSelectorSpec(WireCursor c, Spec* m) {
  StringMapFill selector(m->mutable_selector());
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) { return tag == LenTag(1) && selector.Read(c); });
  if (!ok) return false;
  selector.Finish();
  return true;
}

}  // namespace

bool Assign(WireCursor c, ServiceSpec* m) { return AssignMapSelectorSpec(c, m); }
bool Assign(WireCursor c, Service* m) { return AssignApiObject<Service, /*kHasStatus=*/false>(c, m); }
bool Assign(WireCursor c, ReplicationControllerSpec* m) { return AssignMapSelectorSpec(c, m); }
bool Assign(WireCursor c, ReplicationController* m) {
  return AssignApiObject<ReplicationController, /*kHasStatus=*/false>(c, m);
}

bool Assign(WireCursor c, SelectorSpec* m) {
  SeenFields seen;
  const bool ok = ForEachField(c, [&](uint32_t tag, WireCursor& c) {
    return tag == LenTag(1) && seen.First(1) && ReadMessage(c, m->mutable_selector());
  });
  if (!ok) return false;
  if (!seen.Has(1)) m->clear_selector();
  return true;
}

bool Assign(WireCursor c, ReplicaSet* m) { return AssignApiObject<ReplicaSet, /*kHasStatus=*/false>(c, m); }
bool Assign(WireCursor c, StatefulSet* m) { return AssignApiObject<StatefulSet, /*kHasStatus=*/false>(c, m); }

}  // namespace schedcheck::trace::wire
