package adapter

import (
	"fmt"
	"strings"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
)

// GatesOff lists the feature gates the adapter turns off although upstream v1.37 enables them by
// default, because virtual time cannot express what they do. It is empty: every default gate
// runs. The asynchronous ones are made to run at defined virtual instants instead
// (harness/kube/v1.37/README.md, "Feature gates"): SchedulerAsyncPreemption's goroutine runs
// right after the preemptor's failure handling, OpportunisticBatching's 500 ms batch age is read
// on the virtual clock, SchedulerPopFromBackoffQ's pops are taken by the cycle loop whenever
// activeQ is empty. SchedulerAsyncAPICalls is off by default at v1.37 and stays off.
var GatesOff = []featuregate.Feature{}

// applyGates turns off GatesOff (once per process; the gate is global).
func applyGates() error {
	if len(GatesOff) == 0 {
		return nil
	}
	settings := map[string]bool{}
	for _, g := range GatesOff {
		settings[string(g)] = false
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(settings); err != nil {
		return fmt.Errorf("feature gates: %w", err)
	}
	return nil
}

// versionText is HelloAck.scheduler_version: the linked k8s.io/kubernetes version, the gates
// turned off, and the reservoir tie-break when it replaces upstream's.
func versionText(reservoir bool) string {
	off := "none"
	if len(GatesOff) > 0 {
		names := make([]string, len(GatesOff))
		for i, g := range GatesOff {
			names[i] = string(g)
		}
		off = strings.Join(names, ", ")
	}
	text := fmt.Sprintf("%s (gates off: %s)", kubernetesVersion(), off)
	if reservoir {
		text += " (tie-break: reservoir sampling as v1.27's selectHost, not upstream's)"
	}
	return text
}
