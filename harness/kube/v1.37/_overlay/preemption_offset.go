// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption by the schedcheck
// adapter build; not part of upstream.

package defaultpreemption

// SchedcheckSetOffsetRand replaces the random source of GetOffsetAndNumCandidates' offset
// (upstream's package variable getOffsetRand, rand.Int31n by default); nil restores rand.Int31n.
func SchedcheckSetOffsetRand(f func(int32) int32) {
	if f == nil {
		f = defaultOffsetRand
	}
	getOffsetRand = f
}

var defaultOffsetRand = getOffsetRand
