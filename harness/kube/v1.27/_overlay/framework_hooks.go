// Added to k8s.io/kubernetes/pkg/scheduler/framework by the schedcheck adapter build
// (harness/kube/v1.27/overlay.json); not part of upstream.

package framework

// SchedcheckRand, when set, replaces math/rand in selectHost's tie-breaking draw, so that a
// seeded generator (the reference's) decides among equal top scores.
var SchedcheckRand func(n int) int

// SchedcheckPreemptionOffset, when set, replaces DefaultPreemption's random starting offset into
// the potential nodes (GetOffsetAndNumCandidates).
var SchedcheckPreemptionOffset func(numNodes int32) int32

// SchedcheckIntn is called by the patched selectHost instead of rand.Intn.
func SchedcheckIntn(n int, upstream func(int) int) int {
	if SchedcheckRand != nil {
		return SchedcheckRand(n)
	}
	return upstream(n)
}

// SchedcheckInt31n is called by the patched GetOffsetAndNumCandidates instead of rand.Int31n.
func SchedcheckInt31n(n int32, upstream func(int32) int32) int32 {
	if SchedcheckPreemptionOffset != nil {
		return SchedcheckPreemptionOffset(n)
	}
	return upstream(n)
}
