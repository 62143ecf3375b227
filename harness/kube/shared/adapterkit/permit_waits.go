package adapterkit

// PermitWaits parks binding cycles that wait on Permit (a plugin returned Wait, as
// GangScheduling does until its gang is assumed). Such a binding runs in a goroutine of Bindings
// and gives the turn back to the replay loop while nothing has allowed or rejected its pod; the
// loop calls RunSignalled after everything that may signal one (a scheduling cycle, the trace's
// events, a timeout), and the signalled bindings take their turn in the order they began to wait.
// Bindings must be concurrent (NewBindings(true)).
type PermitWaits struct {
	b      *Bindings
	parked []*permitWaiter
}

type permitWaiter struct {
	signalled func() bool
	self      *binding
}

// NewPermitWaits parks on b's turns.
func NewPermitWaits(b *Bindings) *PermitWaits { return &PermitWaits{b: b} }

// Park is called by the binding cycle that has the turn: it gives the turn back to the loop and
// returns when RunSignalled finds signalled() true.
func (p *PermitWaits) Park(signalled func() bool) {
	me := p.b.current
	p.parked = append(p.parked, &permitWaiter{signalled: signalled, self: me})
	p.b.turn <- struct{}{}
	<-me.wake
}

// Waiting is the number of parked bindings.
func (p *PermitWaits) Waiting() int { return len(p.parked) }

// RunSignalled gives the turn to each parked binding whose pod was signalled, in the order they
// parked, until it is over or waits again; one that parks again goes to the end of the order.
func (p *PermitWaits) RunSignalled() {
	for {
		i := p.indexSignalled()
		if i < 0 {
			return
		}
		w := p.parked[i]
		p.parked = append(p.parked[:i], p.parked[i+1:]...)
		p.b.current = w.self
		w.self.wake <- struct{}{}
		<-p.b.turn
	}
}

func (p *PermitWaits) indexSignalled() int {
	for i, w := range p.parked {
		if w.signalled() {
			return i
		}
	}
	return -1
}
