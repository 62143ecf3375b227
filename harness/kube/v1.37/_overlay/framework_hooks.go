// Added to k8s.io/kubernetes/pkg/scheduler/framework by the schedcheck adapter build
// (harness/kube/v1.37/patches.json); not part of upstream.

package framework

import "time"

// SchedcheckRand, when set, replaces math/rand's Int where upstream v1.37 draws a score
// Randomizer (prioritizeNodes' extender path), so that a seeded generator (the reference's
// SplitMix64) decides.
var SchedcheckRand func() int

// SchedcheckNow, when set, replaces time.Now where upstream reads the real clock to decide
// something (OpportunisticBatching's 500 ms batch age): the adapter's virtual clock.
var SchedcheckNow func() time.Time

// SchedcheckRandInt is called by the patched prioritizeNodes instead of rand.Int.
func SchedcheckRandInt(upstream func() int) int {
	if SchedcheckRand != nil {
		return SchedcheckRand()
	}
	return upstream()
}

// SchedcheckTime is called by the patched OpportunisticBatch instead of time.Now.
func SchedcheckTime(upstream func() time.Time) time.Time {
	if SchedcheckNow != nil {
		return SchedcheckNow()
	}
	return upstream()
}
