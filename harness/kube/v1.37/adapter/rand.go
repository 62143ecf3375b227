package adapter

// splitMix64 is the reference's generator (reference/base/rand.h), so that with the same seed
// both builds draw the same numbers where upstream draws from math/rand: selectHost's tie-break.
type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// uniform draws in [0, n) by rejection, exactly as Rand::Uniform.
func (r *splitMix64) uniform(n uint64) uint64 {
	const max = ^uint64(0)
	for {
		v := r.next()
		if v > max-n && v >= max-max%n {
			continue
		}
		return v % n
	}
}

// intn is the stand-in for rand.Intn.
func (r *splitMix64) intn(n int) int { return int(r.uniform(uint64(n))) }

// int is the stand-in for rand.Int (a non-negative int), where upstream draws a score Randomizer.
func (r *splitMix64) int() int { return int(r.next() >> 1) }
