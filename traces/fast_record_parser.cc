// RecordParser, driven by one table per message of trace.proto and reference/k8s/k8s.proto
// (fast_parse_fields.h states the contract): each field named once, by its number and accessor
// name, in the order of the .proto. A message's table comes after the tables of the messages it
// holds, so every Assign a table calls is declared before it.
#include "traces/fast_record_parser.h"

#include <climits>

#include "traces/fast_parse_fields.h"

namespace schedcheck::trace {
namespace wire {

using namespace schedcheck::k8s;  // NOLINT: the message names, one per function below

// google.protobuf.Value (a PodDisruptionBudget's minAvailable / maxUnavailable): left to protobuf.
bool Assign(WireCursor, google::protobuf::Value*, SpareMembers*) { return false; }

// An attempt's recorded scores (replay --scores): left to protobuf, named in the Attempt table so
// that a reused attempt still drops them when the next record has none.
bool Assign(WireCursor, schedcheck::trace::NodeScore*, SpareMembers*) { return false; }

// Storage objects and the pod volume sources other than a claim: left to protobuf (rare in
// traces next to pods and nodes). Named in their tables so that a reused message still drops them
// when the next record lacks them.
bool Assign(WireCursor, GCEPersistentDiskVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, AWSElasticBlockStoreVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, AzureDiskVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, ISCSIVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, RBDVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, CSIVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, EphemeralVolumeSource*, SpareMembers*) { return false; }
bool Assign(WireCursor, PersistentVolume*, SpareMembers*) { return false; }
bool Assign(WireCursor, PersistentVolumeClaim*, SpareMembers*) { return false; }
bool Assign(WireCursor, StorageClass*, SpareMembers*) { return false; }
bool Assign(WireCursor, CSINode*, SpareMembers*) { return false; }
bool Assign(WireCursor, CSIDriver*, SpareMembers*) { return false; }
bool Assign(WireCursor, CSIStorageCapacity*, SpareMembers*) { return false; }

// The DRA objects: left to protobuf as well (a handful per node next to many pods).
bool Assign(WireCursor, ResourceClaim*, SpareMembers*) { return false; }
bool Assign(WireCursor, ResourceClaimTemplate*, SpareMembers*) { return false; }
bool Assign(WireCursor, ResourceSlice*, SpareMembers*) { return false; }
bool Assign(WireCursor, DeviceClass*, SpareMembers*) { return false; }
bool Assign(WireCursor, DeviceTaintRule*, SpareMembers*) { return false; }

// Workloads and PodGroups: left to protobuf too (one per gang of pods).
bool Assign(WireCursor, Workload*, SpareMembers*) { return false; }
bool Assign(WireCursor, PodGroup*, SpareMembers*) { return false; }

namespace {

// apiVersion = 1, kind = 2, metadata = 3, spec = 4: the selector objects (Service,
// ReplicationController, ReplicaSet, StatefulSet).
template <typename M>
bool AssignObject(WireCursor c, M* m, SpareMembers* s) {
  return Table<WIRE_FIELD(1, api_version), WIRE_FIELD(2, kind), WIRE_FIELD(3, metadata),
               WIRE_FIELD(4, spec)>::Assign(c, m, s);
}

// The same and status = 5: Pod, Node, PodDisruptionBudget.
template <typename M>
bool AssignObjectWithStatus(WireCursor c, M* m, SpareMembers* s) {
  return Table<WIRE_FIELD(1, api_version), WIRE_FIELD(2, kind), WIRE_FIELD(3, metadata),
               WIRE_FIELD(4, spec), WIRE_FIELD(5, status)>::Assign(c, m, s);
}

// LabelSelectorRequirement and NodeSelectorRequirement.
template <typename M>
bool AssignRequirement(WireCursor c, M* m, SpareMembers* s) {
  return Table<WIRE_FIELD(1, key), WIRE_FIELD(2, operator_), WIRE_FIELD(3, values)>::Assign(c, m,
                                                                                            s);
}

// PodAffinity and PodAntiAffinity.
template <typename M>
bool AssignAffinityTerms(WireCursor c, M* m, SpareMembers* s) {
  return Table<WIRE_FIELD(1, required_during_scheduling_ignored_during_execution),
               WIRE_FIELD(2, preferred_during_scheduling_ignored_during_execution)>::Assign(c, m,
                                                                                            s);
}

// ServiceSpec and ReplicationControllerSpec: map<string, string> selector = 1.
template <typename M>
bool AssignMapSelectorSpec(WireCursor c, M* m, SpareMembers* s) {
  return Table<WIRE_FIELD(1, selector)>::Assign(c, m, s);
}

}  // namespace

// --- Metadata, selectors, affinity ------------------------------------------------------------

bool Assign(WireCursor c, OwnerReference* m, SpareMembers* s) {
  using M = OwnerReference;
  return Table<WIRE_FIELD(1, api_version), WIRE_FIELD(2, kind), WIRE_FIELD(3, name),
               WIRE_FIELD(4, uid), WIRE_SCALAR(5, controller)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ObjectMeta* m, SpareMembers* s) {
  using M = ObjectMeta;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, namespace_), WIRE_FIELD(3, uid),
               WIRE_FIELD(4, resource_version), WIRE_FIELD(5, labels), WIRE_FIELD(6, annotations),
               WIRE_FIELD(7, creation_timestamp), WIRE_FIELD(8, deletion_timestamp),
               WIRE_FIELD(9, owner_references), WIRE_FIELD(10, generate_name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, LabelSelectorRequirement* m, SpareMembers* s) {
  return AssignRequirement(c, m, s);
}

bool Assign(WireCursor c, LabelSelector* m, SpareMembers* s) {
  using M = LabelSelector;
  return Table<WIRE_FIELD(1, match_labels), WIRE_FIELD(2, match_expressions)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeSelectorRequirement* m, SpareMembers* s) {
  return AssignRequirement(c, m, s);
}

bool Assign(WireCursor c, NodeSelectorTerm* m, SpareMembers* s) {
  using M = NodeSelectorTerm;
  return Table<WIRE_FIELD(1, match_expressions), WIRE_FIELD(2, match_fields)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeSelector* m, SpareMembers* s) {
  using M = NodeSelector;
  return Table<WIRE_FIELD(1, node_selector_terms)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PreferredSchedulingTerm* m, SpareMembers* s) {
  using M = PreferredSchedulingTerm;
  return Table<WIRE_SCALAR(1, weight), WIRE_FIELD(2, preference)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeAffinity* m, SpareMembers* s) {
  using M = NodeAffinity;
  return Table<WIRE_FIELD(1, required_during_scheduling_ignored_during_execution),
               WIRE_FIELD(2, preferred_during_scheduling_ignored_during_execution)>::Assign(c, m,
                                                                                            s);
}

bool Assign(WireCursor c, PodAffinityTerm* m, SpareMembers* s) {
  using M = PodAffinityTerm;
  return Table<WIRE_FIELD(1, label_selector), WIRE_FIELD(2, namespaces),
               WIRE_FIELD(3, topology_key), WIRE_FIELD(4, namespace_selector),
               WIRE_FIELD(5, match_label_keys), WIRE_FIELD(6, mismatch_label_keys)>::Assign(c, m,
                                                                                            s);
}

bool Assign(WireCursor c, WeightedPodAffinityTerm* m, SpareMembers* s) {
  using M = WeightedPodAffinityTerm;
  return Table<WIRE_SCALAR(1, weight), WIRE_FIELD(2, pod_affinity_term)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodAffinity* m, SpareMembers* s) { return AssignAffinityTerms(c, m, s); }
bool Assign(WireCursor c, PodAntiAffinity* m, SpareMembers* s) {
  return AssignAffinityTerms(c, m, s);
}

bool Assign(WireCursor c, Affinity* m, SpareMembers* s) {
  using M = Affinity;
  return Table<WIRE_FIELD(1, node_affinity), WIRE_FIELD(2, pod_affinity),
               WIRE_FIELD(3, pod_anti_affinity)>::Assign(c, m, s);
}

// --- Pod --------------------------------------------------------------------------------------

bool Assign(WireCursor c, Toleration* m, SpareMembers* s) {
  using M = Toleration;
  return Table<WIRE_FIELD(1, key), WIRE_FIELD(2, operator_), WIRE_FIELD(3, value),
               WIRE_FIELD(4, effect), WIRE_SCALAR(5, toleration_seconds)>::Assign(c, m, s);
}

bool Assign(WireCursor c, TopologySpreadConstraint* m, SpareMembers* s) {
  using M = TopologySpreadConstraint;
  return Table<WIRE_SCALAR(1, max_skew), WIRE_FIELD(2, topology_key),
               WIRE_FIELD(3, when_unsatisfiable), WIRE_FIELD(4, label_selector),
               WIRE_SCALAR(5, min_domains), WIRE_FIELD(6, node_affinity_policy),
               WIRE_FIELD(7, node_taints_policy), WIRE_FIELD(8, match_label_keys)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ContainerPort* m, SpareMembers* s) {
  using M = ContainerPort;
  return Table<WIRE_FIELD(1, name), WIRE_SCALAR(2, host_port), WIRE_SCALAR(3, container_port),
               WIRE_FIELD(4, protocol), WIRE_FIELD(5, host_ip)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ContainerResourceClaim* m, SpareMembers* s) {
  using M = ContainerResourceClaim;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, request)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ResourceRequirements* m, SpareMembers* s) {
  using M = ResourceRequirements;
  return Table<WIRE_FIELD(1, requests), WIRE_FIELD(2, limits), WIRE_FIELD(100, claims)>::Assign(
      c, m, s);
}

bool Assign(WireCursor c, ContainerRestartRule* m, SpareMembers* s) {
  using M = ContainerRestartRule;
  return Table<WIRE_FIELD(1, action)>::Assign(c, m, s);
}

bool Assign(WireCursor c, VolumeMount* m, SpareMembers* s) {
  using M = VolumeMount;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, mount_path),
               WIRE_FIELD(3, bind_mount_options)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Container* m, SpareMembers* s) {
  using M = Container;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, image), WIRE_FIELD(3, resources),
               WIRE_FIELD(4, ports), WIRE_FIELD(5, restart_policy),
               WIRE_FIELD(6, restart_policy_rules), WIRE_FIELD(7, volume_mounts)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodResourceClaim* m, SpareMembers* s) {
  using M = PodResourceClaim;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, resource_claim_name),
               WIRE_FIELD(3, resource_claim_template_name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodSchedulingGroup* m, SpareMembers* s) {
  using M = PodSchedulingGroup;
  return Table<WIRE_FIELD(1, pod_group_name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PersistentVolumeClaimVolumeSource* m, SpareMembers* s) {
  using M = PersistentVolumeClaimVolumeSource;
  return Table<WIRE_FIELD(1, claim_name), WIRE_SCALAR(2, read_only)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Volume* m, SpareMembers* s) {
  using M = Volume;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, persistent_volume_claim),
               WIRE_FIELD(3, gce_persistent_disk), WIRE_FIELD(4, aws_elastic_block_store),
               WIRE_FIELD(5, azure_disk), WIRE_FIELD(6, iscsi), WIRE_FIELD(7, rbd),
               WIRE_FIELD(8, csi), WIRE_FIELD(9, ephemeral)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodSchedulingGate* m, SpareMembers* s) {
  using M = PodSchedulingGate;
  return Table<WIRE_FIELD(1, name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodSpec* m, SpareMembers* s) {
  using M = PodSpec;
  return Table<WIRE_FIELD(1, containers), WIRE_FIELD(2, init_containers), WIRE_FIELD(3, node_name),
               WIRE_FIELD(4, node_selector), WIRE_FIELD(5, affinity), WIRE_FIELD(6, tolerations),
               WIRE_FIELD(7, topology_spread_constraints), WIRE_SCALAR(8, priority),
               WIRE_FIELD(9, priority_class_name), WIRE_FIELD(10, preemption_policy),
               WIRE_FIELD(11, scheduler_name), WIRE_FIELD(12, scheduling_gates),
               WIRE_FIELD(13, overhead), WIRE_FIELD(14, volumes), WIRE_FIELD(15, resources),
               WIRE_FIELD(16, runtime_class_name),
               WIRE_SCALAR(17, termination_grace_period_seconds), WIRE_SCALAR(18, host_network),
               WIRE_SCALAR(19, host_users), WIRE_FIELD(20, resource_claims),
               WIRE_FIELD(110, scheduling_group)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodCondition* m, SpareMembers* s) {
  using M = PodCondition;
  return Table<WIRE_FIELD(1, type), WIRE_FIELD(2, status), WIRE_FIELD(3, reason),
               WIRE_FIELD(4, message), WIRE_FIELD(5, last_transition_time)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ContainerStatus* m, SpareMembers* s) {
  using M = ContainerStatus;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, allocated_resources),
               WIRE_FIELD(3, resources)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodResourceClaimStatus* m, SpareMembers* s) {
  using M = PodResourceClaimStatus;
  return Table<WIRE_FIELD(1, name), WIRE_FIELD(2, resource_claim_name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ContainerExtendedResourceRequest* m, SpareMembers* s) {
  using M = ContainerExtendedResourceRequest;
  return Table<WIRE_FIELD(1, container_name), WIRE_FIELD(2, resource_name),
               WIRE_FIELD(3, request_name)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodExtendedResourceClaimStatus* m, SpareMembers* s) {
  using M = PodExtendedResourceClaimStatus;
  return Table<WIRE_FIELD(1, request_mappings), WIRE_FIELD(2, resource_claim_name)>::Assign(c, m,
                                                                                            s);
}

bool Assign(WireCursor c, PodStatus* m, SpareMembers* s) {
  using M = PodStatus;
  return Table<WIRE_FIELD(1, phase), WIRE_FIELD(2, nominated_node_name), WIRE_FIELD(3, conditions),
               WIRE_FIELD(4, start_time), WIRE_FIELD(5, container_statuses),
               WIRE_FIELD(6, init_container_statuses), WIRE_FIELD(7, allocated_resources),
               WIRE_FIELD(8, resources), WIRE_FIELD(100, resource_claim_statuses),
               WIRE_FIELD(101, extended_resource_claim_status)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Pod* m, SpareMembers* s) { return AssignObjectWithStatus(c, m, s); }

// --- Node -------------------------------------------------------------------------------------

bool Assign(WireCursor c, Taint* m, SpareMembers* s) {
  using M = Taint;
  return Table<WIRE_FIELD(1, key), WIRE_FIELD(2, value), WIRE_FIELD(3, effect),
               WIRE_FIELD(4, time_added)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeSpec* m, SpareMembers* s) {
  using M = NodeSpec;
  return Table<WIRE_SCALAR(1, unschedulable), WIRE_FIELD(2, taints), WIRE_FIELD(3, provider_id),
               WIRE_FIELD(4, pod_cidr)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ContainerImage* m, SpareMembers* s) {
  using M = ContainerImage;
  return Table<WIRE_FIELD(1, names), WIRE_SCALAR(2, size_bytes)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeCondition* m, SpareMembers* s) {
  using M = NodeCondition;
  return Table<WIRE_FIELD(1, type), WIRE_FIELD(2, status), WIRE_FIELD(3, reason),
               WIRE_FIELD(4, message), WIRE_FIELD(5, last_transition_time),
               WIRE_FIELD(6, last_heartbeat_time)>::Assign(c, m, s);
}

bool Assign(WireCursor c, NodeStatus* m, SpareMembers* s) {
  using M = NodeStatus;
  return Table<WIRE_FIELD(1, capacity), WIRE_FIELD(2, allocatable), WIRE_FIELD(3, images),
               WIRE_FIELD(4, conditions), WIRE_FIELD(5, declared_features)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Node* m, SpareMembers* s) { return AssignObjectWithStatus(c, m, s); }

// --- Namespace, PriorityClass, PodDisruptionBudget --------------------------------------------

bool Assign(WireCursor c, Namespace* m, SpareMembers* s) {
  using M = Namespace;
  return Table<WIRE_FIELD(1, api_version), WIRE_FIELD(2, kind), WIRE_FIELD(3, metadata)>::Assign(
      c, m, s);
}

bool Assign(WireCursor c, PriorityClass* m, SpareMembers* s) {
  using M = PriorityClass;
  return Table<WIRE_FIELD(1, api_version), WIRE_FIELD(2, kind), WIRE_FIELD(3, metadata),
               WIRE_SCALAR(4, value), WIRE_SCALAR(5, global_default),
               WIRE_FIELD(6, preemption_policy), WIRE_FIELD(7, description)>::Assign(c, m, s);
}

// min_available and max_unavailable are google.protobuf.Value: left to protobuf (so they end
// cleared here whenever this succeeds).
bool Assign(WireCursor c, PodDisruptionBudgetSpec* m, SpareMembers* s) {
  using M = PodDisruptionBudgetSpec;
  return Table<WIRE_FIELD(1, min_available), WIRE_FIELD(2, selector),
               WIRE_FIELD(3, max_unavailable)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodDisruptionBudgetStatus* m, SpareMembers* s) {
  using M = PodDisruptionBudgetStatus;
  return Table<WIRE_SCALAR(1, disruptions_allowed), WIRE_SCALAR(2, current_healthy),
               WIRE_SCALAR(3, desired_healthy), WIRE_SCALAR(4, expected_pods),
               WIRE_FIELD(5, disrupted_pods)>::Assign(c, m, s);
}

bool Assign(WireCursor c, PodDisruptionBudget* m, SpareMembers* s) {
  return AssignObjectWithStatus(c, m, s);
}

// --- Selector objects -------------------------------------------------------------------------

bool Assign(WireCursor c, ServiceSpec* m, SpareMembers* s) {
  return AssignMapSelectorSpec(c, m, s);
}
bool Assign(WireCursor c, Service* m, SpareMembers* s) { return AssignObject(c, m, s); }
bool Assign(WireCursor c, ReplicationControllerSpec* m, SpareMembers* s) {
  return AssignMapSelectorSpec(c, m, s);
}
bool Assign(WireCursor c, ReplicationController* m, SpareMembers* s) {
  return AssignObject(c, m, s);
}

bool Assign(WireCursor c, SelectorSpec* m, SpareMembers* s) {
  using M = SelectorSpec;
  return Table<WIRE_FIELD(1, selector)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ReplicaSet* m, SpareMembers* s) { return AssignObject(c, m, s); }
bool Assign(WireCursor c, StatefulSet* m, SpareMembers* s) { return AssignObject(c, m, s); }

// --- trace.proto ------------------------------------------------------------------------------

bool Assign(WireCursor c, Attempt* m, SpareMembers* s) {
  using M = Attempt;
  return Table<WIRE_FIELD(1, pod), WIRE_SCALAR(2, attempt), WIRE_SCALAR(3, result),
               WIRE_FIELD(4, node), WIRE_FIELD(5, ties), WIRE_FIELD(6, unschedulable_plugins),
               WIRE_FIELD(7, message), WIRE_FIELD(8, nominated_node), WIRE_FIELD(9, victims),
               WIRE_SCALAR(10, observed), WIRE_FIELD(20, scores)>::Assign(c, m, s);
}

bool Assign(WireCursor c, QueueTransition* m, SpareMembers* s) {
  using M = QueueTransition;
  return Table<WIRE_FIELD(1, pod), WIRE_FIELD(2, from), WIRE_FIELD(3, to),
               WIRE_FIELD(4, cause)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Binding* m, SpareMembers* s) {
  using M = Binding;
  return Table<WIRE_FIELD(1, pod), WIRE_FIELD(2, node), WIRE_SCALAR(3, observed)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Nomination* m, SpareMembers* s) {
  using M = Nomination;
  return Table<WIRE_FIELD(1, pod), WIRE_FIELD(2, node), WIRE_SCALAR(3, observed)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Preemption* m, SpareMembers* s) {
  using M = Preemption;
  return Table<WIRE_FIELD(1, victim), WIRE_FIELD(2, preemptor), WIRE_FIELD(3, node),
               WIRE_SCALAR(4, observed)>::Assign(c, m, s);
}

bool Assign(WireCursor c, ApiEvent* m, SpareMembers* s) {
  using M = ApiEvent;
  return Table<WIRE_SCALAR(1, type), WIRE_ONEOF(2, pod), WIRE_ONEOF(3, node),
               WIRE_ONEOF(4, namespace_), WIRE_ONEOF(5, priority_class),
               WIRE_ONEOF(6, pod_disruption_budget), WIRE_SCALAR(7, during_attempt),
               WIRE_ONEOF(8, service), WIRE_ONEOF(9, replication_controller),
               WIRE_ONEOF(10, replica_set), WIRE_ONEOF(11, stateful_set),
               WIRE_ONEOF(12, persistent_volume), WIRE_ONEOF(13, persistent_volume_claim),
               WIRE_ONEOF(14, storage_class), WIRE_ONEOF(15, csi_node), WIRE_ONEOF(16, csi_driver),
               WIRE_ONEOF(17, csi_storage_capacity), WIRE_ONEOF(18, resource_claim),
               WIRE_ONEOF(19, resource_claim_template), WIRE_ONEOF(20, resource_slice),
               WIRE_ONEOF(21, device_class), WIRE_ONEOF(22, device_taint_rule),
               WIRE_ONEOF(23, workload), WIRE_ONEOF(24, pod_group)>::Assign(c, m, s);
}

bool Assign(WireCursor c, Record* m, SpareMembers* s) {
  using M = Record;
  return Table<WIRE_SCALAR(1, time_ns), WIRE_ONEOF(2, api), WIRE_ONEOF(3, attempt),
               WIRE_ONEOF(4, queue), WIRE_ONEOF(5, binding), WIRE_ONEOF(6, nomination),
               WIRE_ONEOF(7, preemption)>::Assign(c, m, s);
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
  spares_ =
      std::make_unique<wire::SpareMembers>();  // parts kept from it may hold unknown fields too
  return size <= INT_MAX && record->ParseFromArray(data, static_cast<int>(size));
}

}  // namespace schedcheck::trace
