package record

import "testing"

func rvs(es []Entry) []uint64 {
	var out []uint64
	for _, e := range es {
		out = append(out, e.RV)
	}
	return out
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Events arrive out of resourceVersion order across streams; each is written
// once every stream has passed it, and in resourceVersion order.
func TestMergerWaitsForTheSlowestStream(t *testing.T) {
	m := NewMerger([]string{"pods", "nodes"}, 10)
	m.Add("pods", Entry{RV: 14})
	m.Add("pods", Entry{RV: 15})
	if got := m.Ready(); len(got) != 0 {
		t.Fatalf("nodes has reported nothing past 10, yet %v were released", rvs(got))
	}
	m.Add("nodes", Entry{RV: 12}) // arrives after 14 and 15, committed before them
	if got := m.Ready(); !equal(rvs(got), []uint64{12}) {
		t.Fatalf("Ready = %v, want [12]", rvs(got))
	}
	m.Advance("nodes", 20) // a bookmark
	if got := m.Ready(); !equal(rvs(got), []uint64{14, 15}) {
		t.Fatalf("Ready after the bookmark = %v, want [14 15]", rvs(got))
	}
	m.Add("pods", Entry{RV: 30})
	m.Advance("nodes", 5) // a watermark never moves back
	if got := m.Ready(); len(got) != 0 {
		t.Fatalf("30 released past the nodes' watermark 20: %v", rvs(got))
	}
	if got := m.Drain(); !equal(rvs(got), []uint64{30}) {
		t.Fatalf("Drain = %v, want [30]", rvs(got))
	}
}

// Equal resourceVersions (a relist's objects) keep their arrival order.
func TestMergerKeepsArrivalOrderAtOneResourceVersion(t *testing.T) {
	m := NewMerger([]string{"a"}, 0)
	for _, typ := range []string{"ADDED", "MODIFIED", "DELETED"} {
		m.Add("a", Entry{RV: 7, Type: typ})
	}
	got := m.Ready()
	if len(got) != 3 || got[0].Type != "ADDED" || got[1].Type != "MODIFIED" || got[2].Type != "DELETED" {
		t.Fatalf("Ready = %+v, want ADDED, MODIFIED, DELETED", got)
	}
}
