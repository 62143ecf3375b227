package adapter

import (
	"fmt"
	"sort"
	"strings"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"

	"schedcheck.local/kube/shared/adapterkit"
)

// GatesOff lists the feature gates the adapter turns off although upstream v1.37 enables them by
// default, because virtual time cannot express what they do. It is empty: every default gate
// runs. The asynchronous ones are made to run at defined virtual instants instead
// (harness/kube/v1.37/README.md, "Feature gates"): SchedulerAsyncPreemption's goroutine runs
// right after the preemptor's failure handling, OpportunisticBatching's 500 ms batch age is read
// on the virtual clock, SchedulerPopFromBackoffQ's pops are taken by the cycle loop whenever
// activeQ is empty, SchedulerAsyncAPICalls' dispatcher (off by default; Hello.feature_gates may
// turn it on) runs each API call when it is queued.
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

// runGatesSet are the gates the previous run's Hello set: the next run puts them back to their
// defaults first (the feature gate is global to the process, and a session runs many replays).
var runGatesSet = map[string]bool{}

// applyRunGates sets Hello.feature_gates for this run, after putting the gates the previous run
// set back to their defaults. Upstream's SetFromMap refuses unknown gates and gates locked to
// their defaults; its error names the gate.
func applyRunGates(gates map[string]bool) error {
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	settings := map[string]bool{}
	for name := range runGatesSet {
		if spec, ok := known[featuregate.Feature(name)]; ok {
			settings[name] = spec.Default
		}
	}
	for name, value := range gates {
		settings[name] = value
	}
	if len(settings) == 0 {
		return nil
	}
	// On an error nothing is stored, and runGatesSet still names what is set.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(settings); err != nil {
		return fmt.Errorf("Hello.feature_gates %s: %w", gatesText(gates), err)
	}
	runGatesSet = map[string]bool{}
	for name := range gates {
		runGatesSet[name] = true
	}
	return nil
}

// gatesText is "A=true,B=false" in name order.
func gatesText(gates map[string]bool) string {
	names := make([]string, 0, len(gates))
	for n := range gates {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%t", n, gates[n])
	}
	return strings.Join(parts, ",")
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
	text := fmt.Sprintf("%s (gates off: %s)", adapterkit.BuildName(compatLevel), off)
	if reservoir {
		text += " (tie-break: reservoir sampling as v1.27's selectHost, not upstream's)"
	}
	return text
}
