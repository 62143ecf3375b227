package adapterkit

import (
	"fmt"
	"sort"

	"schedcheck.local/kube/common/pb"
)

// draBadQuantity is badQuantity for the DRA kinds: the capacity a claim's requests ask for, the
// capacity it consumed, a slice's device capacities with their request policies, and the counters
// of counter sets and of what devices consume.
func draBadQuantity(e *pb.ApiEvent) error {
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_ResourceClaim:
		c := obj.ResourceClaim
		if err := checkClaimSpec("spec", c.GetSpec()); err != nil {
			return err
		}
		for i, r := range c.GetStatus().GetAllocation().GetDevices().GetResults() {
			if err := checkList(fmt.Sprintf("status.allocation.devices.results[%d].consumedCapacity", i), r.GetConsumedCapacity()); err != nil {
				return err
			}
		}
	case *pb.ApiEvent_ResourceClaimTemplate:
		return checkClaimSpec("spec.spec", obj.ResourceClaimTemplate.GetSpec().GetSpec())
	case *pb.ApiEvent_ResourceSlice:
		spec := obj.ResourceSlice.GetSpec()
		for i, set := range spec.GetSharedCounters() {
			if err := checkCounters(fmt.Sprintf("spec.sharedCounters[%d].counters", i), set.GetCounters()); err != nil {
				return err
			}
		}
		for i, d := range spec.GetDevices() {
			if err := checkDevice(fmt.Sprintf("spec.devices[%d]", i), d); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkClaimSpec(field string, spec *pb.ResourceClaimSpec) error {
	for i, r := range spec.GetDevices().GetRequests() {
		at := fmt.Sprintf("%s.devices.requests[%d]", field, i)
		if err := checkList(at+".exactly.capacity.requests", r.GetExactly().GetCapacity().GetRequests()); err != nil {
			return err
		}
		for j, sub := range r.GetFirstAvailable() {
			if err := checkList(fmt.Sprintf("%s.firstAvailable[%d].capacity.requests", at, j), sub.GetCapacity().GetRequests()); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkDevice(field string, d *pb.Device) error {
	names := make([]string, 0, len(d.GetCapacity()))
	for name := range d.GetCapacity() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		at := field + ".capacity." + name
		c := d.GetCapacity()[name]
		if err := checkQuantity(at+".value", c.GetValue()); err != nil {
			return err
		}
		// A capacity without a request policy, or a policy without a range, is common (a plain
		// GPU's memory): the getters of absent messages return nil.
		policy := c.GetRequestPolicy()
		type optionalQuantity struct {
			field string
			value *string
		}
		var optional []optionalQuantity
		if policy != nil {
			optional = append(optional, optionalQuantity{".requestPolicy.default", policy.DefaultValue})
		}
		if r := policy.GetValidRange(); r != nil {
			optional = append(optional, optionalQuantity{".requestPolicy.validRange.min", r.Min},
				optionalQuantity{".requestPolicy.validRange.max", r.Max}, optionalQuantity{".requestPolicy.validRange.step", r.Step})
		}
		for _, o := range optional {
			if o.value != nil {
				if err := checkQuantity(at+o.field, *o.value); err != nil {
					return err
				}
			}
		}
		for i, v := range policy.GetValidValues() {
			if err := checkQuantity(fmt.Sprintf("%s.requestPolicy.validValues[%d]", at, i), v); err != nil {
				return err
			}
		}
	}
	for i, c := range d.GetConsumesCounters() {
		if err := checkCounters(fmt.Sprintf("%s.consumesCounters[%d].counters", field, i), c.GetCounters()); err != nil {
			return err
		}
	}
	return nil
}

func checkCounters(field string, counters map[string]*pb.Counter) error {
	values := make(map[string]string, len(counters))
	for name, c := range counters {
		values[name] = c.GetValue()
	}
	return checkList(field, values)
}
