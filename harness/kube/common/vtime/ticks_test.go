package vtime

import "testing"

func TestNextTick(t *testing.T) {
	cases := []struct {
		name        string
		after, want int64
	}{
		{"nothing run yet: 0", -1, 0},
		{"strictly after a tick", 0, Second},
		{"from inside a second", Second + 5, 2 * Second},
		{"from the last nanosecond of a second", 2*Second - 1, 2 * Second},
	}
	for _, c := range cases {
		if got := NextTick(c.after); got != c.want {
			t.Errorf("%s: NextTick(%d) = %d, want %d", c.name, c.after, got, c.want)
		}
	}
}

func TestTickKinds(t *testing.T) {
	if !IsBackoffTick(0) || !IsLeftoverTick(0) || !IsLeftoverTick(60*Second) {
		t.Error("0 s and 60 s run both flushes")
	}
	if IsLeftoverTick(31*Second) || !IsBackoffTick(31*Second) || IsBackoffTick(Second+1) {
		t.Error("31 s runs only the backoff flush; 1 s + 1 ns runs none")
	}
}
