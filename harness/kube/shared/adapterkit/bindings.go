package adapterkit

// Bindings runs the binding cycles of a replay whose binding cycles can wait in virtual time:
// VolumeBinding's PreBind polls every second while the volume controllers answer later
// (Hello.volume_latency_ns). Upstream runs each binding cycle in a goroutine of its own; here each
// runs in a goroutine too, but they take turns with the replay loop: exactly one of them runs at
// any moment, and the loop decides who runs next, so a run stays deterministic. Without waiting
// (NewBindings(false)) a binding cycle runs inline, as before.
type Bindings struct {
	concurrent bool
	parked     []*binding // waiting bindings, in the order they parked
	current    *binding   // the binding goroutine that has the turn
	turn       chan struct{}
}

type binding struct {
	due  int64 // the instant it runs again
	wake chan struct{}
}

// NewBindings returns the runner; `concurrent` when binding cycles can wait (Park).
func NewBindings(concurrent bool) *Bindings {
	return &Bindings{concurrent: concurrent, turn: make(chan struct{})}
}

// Run runs a binding cycle and returns when it is over (false) or waits (true: Park).
func (b *Bindings) Run(cycle func()) bool {
	if !b.concurrent {
		cycle()
		return false
	}
	me := &binding{wake: make(chan struct{})}
	b.current = me
	done := false
	go func() {
		cycle()
		done = true
		b.turn <- struct{}{}
	}()
	<-b.turn
	return !done
}

// Park is called by the binding cycle that has the turn: it gives the turn back to the loop and
// returns when the loop runs instant `due` (RunDue).
func (b *Bindings) Park(due int64) {
	me := b.current
	me.due = due
	b.parked = append(b.parked, me)
	b.turn <- struct{}{}
	<-me.wake
}

// NextDue is the earliest instant a waiting binding runs again; false when none waits.
func (b *Bindings) NextDue() (int64, bool) {
	if len(b.parked) == 0 {
		return 0, false
	}
	next := b.parked[0].due
	for _, p := range b.parked[1:] {
		if p.due < next {
			next = p.due
		}
	}
	return next, true
}

// RunDue gives the turn to each binding due at `now`, in the order they parked, until it is over
// or waits again.
func (b *Bindings) RunDue(now int64) {
	for {
		i := b.indexDue(now)
		if i < 0 {
			return
		}
		me := b.parked[i]
		b.parked = append(b.parked[:i], b.parked[i+1:]...)
		b.current = me
		me.wake <- struct{}{}
		<-b.turn
	}
}

func (b *Bindings) indexDue(now int64) int {
	for i, p := range b.parked {
		if p.due == now {
			return i
		}
	}
	return -1
}
