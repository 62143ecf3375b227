package adapterkit

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"

	"schedcheck.local/kube/common/pb"
)

// badQuantity names the first quantity of a trace object that does not parse, as
// "spec.containers[1].resources.requests.cpu: ..." (a pod) or "spec.capacity.storage: ..." (a
// PersistentVolume): the JSON decoder reports a bad quantity without saying where it is.
func badQuantity(e *pb.ApiEvent) error {
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_Pod:
		spec := obj.Pod.GetSpec()
		for i, c := range spec.GetContainers() {
			if err := checkRequirements(fmt.Sprintf("spec.containers[%d].resources", i), c.GetResources()); err != nil {
				return err
			}
		}
		for i, c := range spec.GetInitContainers() {
			if err := checkRequirements(fmt.Sprintf("spec.initContainers[%d].resources", i), c.GetResources()); err != nil {
				return err
			}
		}
		if err := checkList("spec.overhead", spec.GetOverhead()); err != nil {
			return err
		}
		return checkRequirements("spec.resources", spec.GetResources())
	case *pb.ApiEvent_Node:
		if err := checkList("status.capacity", obj.Node.GetStatus().GetCapacity()); err != nil {
			return err
		}
		return checkList("status.allocatable", obj.Node.GetStatus().GetAllocatable())
	case *pb.ApiEvent_PersistentVolume:
		return checkList("spec.capacity", obj.PersistentVolume.GetSpec().GetCapacity())
	case *pb.ApiEvent_PersistentVolumeClaim:
		pvc := obj.PersistentVolumeClaim
		if err := checkList("spec.resources.requests", pvc.GetSpec().GetResources().GetRequests()); err != nil {
			return err
		}
		if err := checkList("spec.resources.limits", pvc.GetSpec().GetResources().GetLimits()); err != nil {
			return err
		}
		return checkList("status.capacity", pvc.GetStatus().GetCapacity())
	case *pb.ApiEvent_CsiStorageCapacity:
		c := obj.CsiStorageCapacity
		if c.Capacity != nil {
			if err := checkQuantity("capacity", c.GetCapacity()); err != nil {
				return err
			}
		}
		if c.MaximumVolumeSize != nil {
			return checkQuantity("maximumVolumeSize", c.GetMaximumVolumeSize())
		}
	case *pb.ApiEvent_ResourceClaim, *pb.ApiEvent_ResourceClaimTemplate, *pb.ApiEvent_ResourceSlice:
		return draBadQuantity(e)
	}
	return nil
}

func checkRequirements(field string, r *pb.ResourceRequirements) error {
	if err := checkList(field+".requests", r.GetRequests()); err != nil {
		return err
	}
	return checkList(field+".limits", r.GetLimits())
}

func checkList(field string, list map[string]string) error {
	names := make([]string, 0, len(list))
	for name := range list {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := checkQuantity(field+"."+name, list[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkQuantity(field, value string) error {
	if _, err := resource.ParseQuantity(value); err != nil {
		return fmt.Errorf("%s: invalid quantity %q: %w", field, value, err)
	}
	return nil
}
