package adapterkit

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"google.golang.org/protobuf/proto"
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"

	"schedcheck.local/kube/common/objects"
	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/profile"
)

// Objects applies trace events the way the API server and the scheduler's informers would:
// the API's defaults are applied (schedulerName, requests from limits, ...), priority admission
// fills spec.priority, every write gets a resourceVersion, terminal pods leave
// the pod informer (its field selector), and each informer's store changes before its handlers
// run. Storage objects (storage.go) go into the informers the volume plugins read.
type Objects struct {
	factory    *SyncFactory
	pods       *SyncInformer
	nodes      *SyncInformer
	namespaces *SyncInformer
	pdbs       *SyncInformer
	// Selector objects: PodTopologySpread's default constraints list them (helper.DefaultSelector).
	services               *SyncInformer
	replicationControllers *SyncInformer
	replicaSets            *SyncInformer
	statefulSets           *SyncInformer
	storage                storageInformers
	// PriorityClasses: admission reads the map (admitPriority); plugins read the informer's
	// lister (scheduler-plugins' PreemptionToleration, ...), as from a running API server.
	priorityClassInformer *SyncInformer
	priorityClasses       map[string]*schedulingv1.PriorityClass
	// version is the highest resourceVersion given so far, by the adapter or by the trace.
	version uint64
	// storageVersion is the same over PersistentVolumes and claims alone, which the reference
	// stamps alike (Replayer::StampVersion): VolumeBinding's assume cache prints their versions.
	storageVersion uint64
	// dra applies the Dynamic Resource Allocation kinds, when the adapter's Kubernetes version
	// has their resource.k8s.io/v1 types (SetDRA); without it they are accepted and read by
	// nothing.
	dra DRAObjects
	// groups applies Workloads and PodGroups, when the adapter's version has their types
	// (SetGroups, podgroups.go).
	groups GroupObjects
}

// DRAObjects applies events of the DRA kinds (ResourceClaim, ResourceClaimTemplate,
// ResourceSlice, DeviceClass, DeviceTaintRule) to the informers of the adapter's version.
type DRAObjects interface {
	Apply(e *pb.ApiEvent) error
}

// SetDRA makes d apply the DRA kinds.
func (s *Objects) SetDRA(d DRAObjects) { s.dra = d }

// NewObjects makes the informers of the kinds traces carry.
func NewObjects(f *SyncFactory) *Objects {
	return &Objects{
		factory:    f,
		pods:       f.informer(&v1.Pod{}, f.Core().V1().Pods().Informer),
		nodes:      f.informer(&v1.Node{}, f.Core().V1().Nodes().Informer),
		namespaces: f.informer(&v1.Namespace{}, f.Core().V1().Namespaces().Informer),
		pdbs:       f.informer(&policyv1.PodDisruptionBudget{}, f.Policy().V1().PodDisruptionBudgets().Informer),
		services:   f.informer(&v1.Service{}, f.Core().V1().Services().Informer),
		replicationControllers: f.informer(&v1.ReplicationController{},
			f.Core().V1().ReplicationControllers().Informer),
		replicaSets:  f.informer(&appsv1.ReplicaSet{}, f.Apps().V1().ReplicaSets().Informer),
		statefulSets: f.informer(&appsv1.StatefulSet{}, f.Apps().V1().StatefulSets().Informer),
		storage:      newStorageInformers(f),
		priorityClassInformer: f.informer(&schedulingv1.PriorityClass{},
			f.Scheduling().V1().PriorityClasses().Informer),
		priorityClasses: map[string]*schedulingv1.PriorityClass{},
	}
}

// decode turns a trace object into its client-go type through its Kubernetes JSON.
func decode(m proto.Message, into interface{}) error {
	raw, err := objects.KubeJSON(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, into)
}

// Apply applies trace event e (trace record `index`, named in errors).
func (s *Objects) Apply(e *pb.ApiEvent, index uint64) error {
	defer profile.Add(profile.Feed, profile.Now())
	where := fmt.Sprintf("trace record %d", index)
	err := badQuantity(e)
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_Pod:
		pod := &v1.Pod{}
		if err == nil {
			err = decode(obj.Pod, pod)
		}
		if err == nil {
			corev1defaults.SetObjectDefaults_Pod(pod)
			err = s.applyPod(e.GetType(), pod)
		}
		where += " (pod " + obj.Pod.GetMetadata().GetNamespace() + "/" + obj.Pod.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_Node:
		node := &v1.Node{}
		if err == nil {
			err = decode(obj.Node, node)
		}
		if err == nil {
			corev1defaults.SetObjectDefaults_Node(node)
			err = s.applyPlain(s.nodes, e.GetType(), node)
		}
		where += " (node " + obj.Node.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_Namespace:
		ns := &v1.Namespace{}
		if err = decode(obj.Namespace, ns); err == nil {
			err = s.applyPlain(s.namespaces, e.GetType(), ns)
		}
	case *pb.ApiEvent_PodDisruptionBudget:
		pdb := &policyv1.PodDisruptionBudget{}
		if err = decode(obj.PodDisruptionBudget, pdb); err == nil {
			if pdb.Namespace == "" {
				pdb.Namespace = "default"
			}
			err = s.applyPlain(s.pdbs, e.GetType(), pdb)
		}
	case *pb.ApiEvent_Service:
		err = s.applySelectorObject(s.services, e.GetType(), obj.Service, &v1.Service{})
	case *pb.ApiEvent_ReplicationController:
		err = s.applySelectorObject(s.replicationControllers, e.GetType(), obj.ReplicationController,
			&v1.ReplicationController{})
	case *pb.ApiEvent_ReplicaSet:
		err = s.applySelectorObject(s.replicaSets, e.GetType(), obj.ReplicaSet, &appsv1.ReplicaSet{})
	case *pb.ApiEvent_StatefulSet:
		err = s.applySelectorObject(s.statefulSets, e.GetType(), obj.StatefulSet, &appsv1.StatefulSet{})
	case *pb.ApiEvent_PriorityClass:
		pc := &schedulingv1.PriorityClass{}
		if err = decode(obj.PriorityClass, pc); err == nil {
			if e.GetType() == pb.EventType_DELETED {
				delete(s.priorityClasses, pc.Name)
			} else {
				s.priorityClasses[pc.Name] = pc
			}
			err = s.applyUnstamped(s.priorityClassInformer, e.GetType(), pc)
		}
		where += " (priorityClass " + obj.PriorityClass.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_PersistentVolume, *pb.ApiEvent_PersistentVolumeClaim, *pb.ApiEvent_StorageClass,
		*pb.ApiEvent_CsiNode, *pb.ApiEvent_CsiDriver, *pb.ApiEvent_CsiStorageCapacity:
		if err == nil {
			err = s.applyStorage(e)
		}
		where += storageName(e)
	case *pb.ApiEvent_ResourceClaim, *pb.ApiEvent_ResourceClaimTemplate, *pb.ApiEvent_ResourceSlice,
		*pb.ApiEvent_DeviceClass, *pb.ApiEvent_DeviceTaintRule:
		// Dynamic Resource Allocation objects: fed to the informers by the version's DRAObjects;
		// without one (v1.27, whose DRA gate is alpha and off) nothing reads them.
		if err == nil && s.dra != nil {
			err = s.dra.Apply(e)
		}
		where += DRAName(e)
	case *pb.ApiEvent_Workload, *pb.ApiEvent_PodGroup:
		// Workloads and PodGroups: fed to the informers by the version's GroupObjects (v1.37);
		// without one nothing reads them.
		if err == nil && s.groups != nil {
			err = s.groups.Apply(e)
		}
		where += GroupName(e)
	default:
		err = fmt.Errorf("field api.object: missing")
	}
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// stampBase is where the adapter's own resourceVersions start.
const stampBase = uint64(1) << 40

// versioned is an object whose resourceVersion the adapter may stamp.
type versioned interface {
	GetResourceVersion() string
	SetResourceVersion(string)
}

// stamp gives an object without a resourceVersion a fresh one, as the API server would: a
// decimal integer above every version given so far (VolumeBinding compares the versions of
// volumes and claims as integers).
func (s *Objects) stamp(meta versioned) { stampFrom(&s.version, meta) }

// stampStorage is stamp for a PersistentVolume or claim, from the storage counter, so that the
// versions match the reference's. stamp then sees a given version.
func (s *Objects) stampStorage(meta versioned) { stampFrom(&s.storageVersion, meta) }

// stampFrom stamps `meta` from `counter` when it has no version, else raises the counter to it.
func stampFrom(counter *uint64, meta versioned) {
	given := meta.GetResourceVersion()
	if given == "" {
		// Stamps start at 2^40, far above the small versions traces write, so that a later
		// trace object never repeats a stamped version: the scheduler drops a pod update whose
		// version equals the stored one (a status write the adapter stamped, then the trace's
		// next version of that pod).
		if *counter < stampBase {
			*counter = stampBase
		}
		*counter++
		meta.SetResourceVersion(strconv.FormatUint(*counter, 10))
		return
	}
	if n, err := strconv.ParseUint(given, 10, 64); err == nil && n > *counter {
		*counter = n
	}
}

// namespacedObject is a client-go object with metadata (Service, ReplicaSet, ...).
type namespacedObject interface {
	GetNamespace() string
	SetNamespace(string)
	GetResourceVersion() string
	SetResourceVersion(string)
}

// applySelectorObject decodes a Service / ReplicationController / ReplicaSet / StatefulSet (the
// trace holds their selectors only) into `into` and applies it to its informer, in namespace
// "default" when the trace names none.
func (s *Objects) applySelectorObject(inf *SyncInformer, t pb.EventType, m proto.Message, into namespacedObject) error {
	if err := decode(m, into); err != nil {
		return err
	}
	if into.GetNamespace() == "" {
		into.SetNamespace("default")
	}
	return s.applyPlain(inf, t, into)
}

func (s *Objects) applyPlain(inf *SyncInformer, t pb.EventType, obj versioned) error {
	old := inf.get(obj)
	if t == pb.EventType_DELETED {
		if old == nil {
			return nil
		}
		return inf.remove(old)
	}
	s.stamp(obj)
	if old == nil {
		return inf.add(obj)
	}
	return inf.update(old, obj)
}

// applyUnstamped is applyPlain without a resourceVersion for the object: for kinds no default
// plugin reads, so that feeding them leaves the versions of every other object as they were.
func (s *Objects) applyUnstamped(inf *SyncInformer, t pb.EventType, obj interface{}) error {
	return inf.Deliver(t, obj)
}

func (s *Objects) applyPod(t pb.EventType, pod *v1.Pod) error {
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	if pod.UID == "" {
		// The scheduler's cache is keyed by UID; a trace may leave it out (the reference uses the
		// same stand-in).
		pod.UID = types.UID(pod.Namespace + "/" + pod.Name)
	}
	old := s.pods.get(pod)
	if old != nil && old.(*v1.Pod).Spec.NodeName != "" && pod.Spec.NodeName != old.(*v1.Pod).Spec.NodeName {
		// spec.nodeName is immutable once set (the API server's rule): an event that names another
		// node, or none, for a bound pod keeps it where it is bound, as the reference's replay does
		// (docs/FORMATS.md#replay-conventions). Upstream's cache would take it for corruption.
		pod.Spec.NodeName = old.(*v1.Pod).Spec.NodeName
	}
	if t != pb.EventType_DELETED {
		var stored *v1.Pod
		if old != nil {
			stored = old.(*v1.Pod)
		}
		s.admitPriority(pod, stored)
	}
	terminal := pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed
	if t == pb.EventType_DELETED || terminal {
		if old == nil {
			return nil
		}
		return s.pods.remove(old)
	}
	s.stamp(pod)
	if old == nil {
		return s.pods.add(pod)
	}
	return s.pods.update(old, pod)
}

// admitPriority is the Priority admission plugin (plugin/pkg/admission/priority), which runs on
// create only: spec.priority and spec.preemptionPolicy come from the named class, or from the
// global default class of the lowest value when none is named (else 0 and PreemptLowerPriority);
// what the pod already carries stays. An update keeps what create admitted (a class deleted or
// added meanwhile changes nothing). A class that does not exist leaves the pod without a priority
// (the API server would refuse the pod). The same rules as the reference's replay
// (Replayer::AdmitPriority).
func (s *Objects) admitPriority(pod *v1.Pod, stored *v1.Pod) {
	if stored != nil {
		if pod.Spec.Priority == nil {
			pod.Spec.Priority = stored.Spec.Priority
		}
		if pod.Spec.PreemptionPolicy == nil {
			pod.Spec.PreemptionPolicy = stored.Spec.PreemptionPolicy
		}
		return
	}
	var class *schedulingv1.PriorityClass
	if pod.Spec.PriorityClassName == "" {
		class = s.defaultPriorityClass()
	} else if class = s.priorityClasses[pod.Spec.PriorityClassName]; class == nil {
		return
	}
	if pod.Spec.Priority == nil {
		value := int32(0)
		if class != nil {
			value = class.Value
		}
		pod.Spec.Priority = &value
	}
	if pod.Spec.PreemptionPolicy == nil {
		policy := v1.PreemptLowerPriority
		if class != nil && class.PreemptionPolicy != nil {
			policy = *class.PreemptionPolicy
		}
		pod.Spec.PreemptionPolicy = &policy
	}
}

// defaultPriorityClass is the global default class admission picks: the lowest value among the
// classes marked globalDefault; equal values in name order.
func (s *Objects) defaultPriorityClass() *schedulingv1.PriorityClass {
	names := make([]string, 0, len(s.priorityClasses))
	for name := range s.priorityClasses {
		names = append(names, name)
	}
	sort.Strings(names)
	var out *schedulingv1.PriorityClass
	for _, name := range names {
		if pc := s.priorityClasses[name]; pc.GlobalDefault && (out == nil || pc.Value < out.Value) {
			out = pc
		}
	}
	return out
}

// Bind delivers a completed binding: the pod as assumed (nodeName set, nomination cleared) as an
// update of the pod the informer holds.
func (s *Objects) Bind(key, node string) error {
	stored, ok, err := s.pods.GetStore().GetByKey(key)
	if err != nil || !ok {
		return fmt.Errorf("binding %s: the pod is no longer in the informer", key)
	}
	old := stored.(*v1.Pod)
	bound := old.DeepCopy()
	bound.Spec.NodeName = node
	bound.Status.NominatedNodeName = ""
	bound.ResourceVersion = ""
	s.stamp(bound)
	return s.pods.update(old, bound)
}

// Nominate delivers a status patch of nominatedNodeName, when it changes the stored pod.
func (s *Objects) Nominate(key, node string) error {
	stored, ok, err := s.pods.GetStore().GetByKey(key)
	if err != nil || !ok {
		return nil
	}
	old := stored.(*v1.Pod)
	if old.Status.NominatedNodeName == node || old.Spec.NodeName != "" {
		return nil
	}
	updated := old.DeepCopy()
	updated.Status.NominatedNodeName = node
	updated.ResourceVersion = ""
	s.stamp(updated)
	return s.pods.update(old, updated)
}

// DeletePod delivers a deletion made by the scheduler (a preemption victim).
func (s *Objects) DeletePod(key string) error {
	stored, ok, err := s.pods.GetStore().GetByKey(key)
	if err != nil || !ok {
		return nil
	}
	return s.pods.remove(stored)
}
