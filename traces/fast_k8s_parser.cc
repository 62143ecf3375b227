// Merge functions for the k8s.proto messages shared by several objects (metadata, selectors,
// affinity) and for Node, Namespace, PriorityClass and PodDisruptionBudget. Field numbers follow
// traces/k8s.proto; fast_parse_fields.h states the contract.
#include "traces/fast_parse_fields.h"

namespace schedcheck::trace::wire {

using namespace schedcheck::k8s;  // NOLINT: the message names, one per function below

bool Merge(WireCursor c, OwnerReference* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_api_version());
      case LenTag(2): return ReadString(c, m->mutable_kind());
      case LenTag(3): return ReadString(c, m->mutable_name());
      case LenTag(4): return ReadString(c, m->mutable_uid());
      case VarintTag(5): return ReadBool(c, m, &OwnerReference::set_controller);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, ObjectMeta* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_name());
      case LenTag(2): return ReadString(c, m->mutable_namespace_());
      case LenTag(3): return ReadString(c, m->mutable_uid());
      case LenTag(4): return ReadString(c, m->mutable_resource_version());
      case LenTag(5): return ReadStringMapEntry(c, m->mutable_labels());
      case LenTag(6): return ReadStringMapEntry(c, m->mutable_annotations());
      case LenTag(7): return ReadString(c, m->mutable_creation_timestamp());
      case LenTag(8): return ReadString(c, m->mutable_deletion_timestamp());
      case LenTag(9): return ReadMessage(c, m->add_owner_references());
      case LenTag(10): return ReadString(c, m->mutable_generate_name());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, LabelSelectorRequirement* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_key());
      case LenTag(2): return ReadString(c, m->mutable_operator_());
      case LenTag(3): return ReadString(c, m->add_values());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, LabelSelector* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadStringMapEntry(c, m->mutable_match_labels());
      case LenTag(2): return ReadMessage(c, m->add_match_expressions());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeSelectorRequirement* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_key());
      case LenTag(2): return ReadString(c, m->mutable_operator_());
      case LenTag(3): return ReadString(c, m->add_values());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeSelectorTerm* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, m->add_match_expressions());
      case LenTag(2): return ReadMessage(c, m->add_match_fields());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeSelector* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    return tag == LenTag(1) && ReadMessage(c, m->add_node_selector_terms());
  });
}

bool Merge(WireCursor c, PreferredSchedulingTerm* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return ReadInt32(c, m, &PreferredSchedulingTerm::set_weight);
      case LenTag(2): return ReadMessage(c, m->mutable_preference());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeAffinity* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1):
        return ReadMessage(c, m->mutable_required_during_scheduling_ignored_during_execution());
      case LenTag(2):
        return ReadMessage(c, m->add_preferred_during_scheduling_ignored_during_execution());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodAffinityTerm* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, m->mutable_label_selector());
      case LenTag(2): return ReadString(c, m->add_namespaces());
      case LenTag(3): return ReadString(c, m->mutable_topology_key());
      case LenTag(4): return ReadMessage(c, m->mutable_namespace_selector());
      case LenTag(5): return ReadString(c, m->add_match_label_keys());
      case LenTag(6): return ReadString(c, m->add_mismatch_label_keys());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, WeightedPodAffinityTerm* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return ReadInt32(c, m, &WeightedPodAffinityTerm::set_weight);
      case LenTag(2): return ReadMessage(c, m->mutable_pod_affinity_term());
      default: return false;
    }
  });
}

// PodAffinity and PodAntiAffinity have the same fields.
template <typename AffinityMessage>
bool MergeAffinityTerms(WireCursor c, AffinityMessage* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1):
        return ReadMessage(c, m->add_required_during_scheduling_ignored_during_execution());
      case LenTag(2):
        return ReadMessage(c, m->add_preferred_during_scheduling_ignored_during_execution());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodAffinity* m) { return MergeAffinityTerms(c, m); }
bool Merge(WireCursor c, PodAntiAffinity* m) { return MergeAffinityTerms(c, m); }

bool Merge(WireCursor c, Affinity* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadMessage(c, m->mutable_node_affinity());
      case LenTag(2): return ReadMessage(c, m->mutable_pod_affinity());
      case LenTag(3): return ReadMessage(c, m->mutable_pod_anti_affinity());
      default: return false;
    }
  });
}

// --- Node -------------------------------------------------------------------------------------

bool Merge(WireCursor c, Taint* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_key());
      case LenTag(2): return ReadString(c, m->mutable_value());
      case LenTag(3): return ReadString(c, m->mutable_effect());
      case LenTag(4): return ReadString(c, m->mutable_time_added());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeSpec* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case VarintTag(1): return ReadBool(c, m, &NodeSpec::set_unschedulable);
      case LenTag(2): return ReadMessage(c, m->add_taints());
      case LenTag(3): return ReadString(c, m->mutable_provider_id());
      case LenTag(4): return ReadString(c, m->mutable_pod_cidr());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, ContainerImage* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->add_names());
      case VarintTag(2): return ReadInt64(c, m, &ContainerImage::set_size_bytes);
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeCondition* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_type());
      case LenTag(2): return ReadString(c, m->mutable_status());
      case LenTag(3): return ReadString(c, m->mutable_reason());
      case LenTag(4): return ReadString(c, m->mutable_message());
      case LenTag(5): return ReadString(c, m->mutable_last_transition_time());
      case LenTag(6): return ReadString(c, m->mutable_last_heartbeat_time());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, NodeStatus* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadStringMapEntry(c, m->mutable_capacity());
      case LenTag(2): return ReadStringMapEntry(c, m->mutable_allocatable());
      case LenTag(3): return ReadMessage(c, m->add_images());
      case LenTag(4): return ReadMessage(c, m->add_conditions());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, Node* m) {
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

// --- Namespace, PriorityClass, PodDisruptionBudget --------------------------------------------

bool Merge(WireCursor c, Namespace* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_api_version());
      case LenTag(2): return ReadString(c, m->mutable_kind());
      case LenTag(3): return ReadMessage(c, m->mutable_metadata());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PriorityClass* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    switch (tag) {
      case LenTag(1): return ReadString(c, m->mutable_api_version());
      case LenTag(2): return ReadString(c, m->mutable_kind());
      case LenTag(3): return ReadMessage(c, m->mutable_metadata());
      case VarintTag(4): return ReadInt32(c, m, &PriorityClass::set_value);
      case VarintTag(5): return ReadBool(c, m, &PriorityClass::set_global_default);
      case LenTag(6): return ReadString(c, m->mutable_preemption_policy());
      case LenTag(7): return ReadString(c, m->mutable_description());
      default: return false;
    }
  });
}

// min_available and max_unavailable (fields 1 and 3) are google.protobuf.Value: left to protobuf.
bool Merge(WireCursor c, PodDisruptionBudgetSpec* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    return tag == LenTag(2) && ReadMessage(c, m->mutable_selector());
  });
}

bool Merge(WireCursor c, PodDisruptionBudgetStatus* m) {
  return ForEachField(c, [m](uint32_t tag, WireCursor& c) {
    using S = PodDisruptionBudgetStatus;
    switch (tag) {
      case VarintTag(1): return ReadInt32(c, m, &S::set_disruptions_allowed);
      case VarintTag(2): return ReadInt32(c, m, &S::set_current_healthy);
      case VarintTag(3): return ReadInt32(c, m, &S::set_desired_healthy);
      case VarintTag(4): return ReadInt32(c, m, &S::set_expected_pods);
      case LenTag(5): return ReadStringMapEntry(c, m->mutable_disrupted_pods());
      default: return false;
    }
  });
}

bool Merge(WireCursor c, PodDisruptionBudget* m) {
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
