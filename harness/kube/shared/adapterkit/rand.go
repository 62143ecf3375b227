// Package adapterkit is the version-independent half of the kube adapters (harness/kube): trace
// objects applied to synchronous informers as an API server and a running informer would, the
// seeded generator, the virtual clock plugins read, and configuration loading. Each adapter
// (v1.27/adapter, v1.37/adapter) adds what depends on its version's internals.
package adapterkit

// SplitMix64 is the reference's generator (reference/base/rand.h), so that with the same seed
// both builds draw the same numbers where upstream draws from math/rand.
type SplitMix64 struct{ state uint64 }

// NewSplitMix64 seeds a generator as the reference's Rand(seed).
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{state: seed} }

func (r *SplitMix64) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// uniform draws in [0, n) by rejection, exactly as Rand::Uniform.
func (r *SplitMix64) uniform(n uint64) uint64 {
	const max = ^uint64(0)
	for {
		v := r.next()
		if v > max-n && v >= max-max%n {
			continue
		}
		return v % n
	}
}

// Intn is the stand-in for rand.Intn.
func (r *SplitMix64) Intn(n int) int { return int(r.uniform(uint64(n))) }

// Int is the stand-in for rand.Int (a non-negative int).
func (r *SplitMix64) Int() int { return int(r.next() >> 1) }
