package vtime

import (
	"reflect"
	"testing"
)

func TestTicksBetween(t *testing.T) {
	cases := []struct {
		name          string
		after, before int64
		want          []int64
	}{
		{"nothing run yet includes 0", -1, 2 * Second, []int64{0, Second}},
		{"strictly between", 0, 3 * Second, []int64{Second, 2 * Second}},
		{"from inside a second", Second + 5, 3*Second + 1, []int64{2 * Second, 3 * Second}},
		{"none when adjacent", Second, Second + 999_999_999, nil},
		{"before excluded", Second, 2 * Second, nil},
	}
	for _, c := range cases {
		if got := TicksBetween(c.after, c.before); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: TicksBetween(%d, %d) = %v, want %v", c.name, c.after, c.before, got, c.want)
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
