// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// It keeps the per-node scores of the score phase for the adapter, which records the top nodes'
// on the attempt when the harness asks (Hello.record_scores).

package scheduler

import "k8s.io/kubernetes/pkg/scheduler/framework"

// schedcheckScores are the last score phase's scores; package-level like schedcheckState.
var schedcheckScores []framework.NodePluginScores

// schedcheckNoteScores keeps the scores prioritizeNodes returned (no copy: nothing changes them
// after selectHost).
func schedcheckNoteScores(scores []framework.NodePluginScores) { schedcheckScores = scores }

// TakeScores returns the per-node scores of the last score phase (each plugin's weighted score
// and the total) and forgets them; nil when no score phase ran (a single feasible node).
func (b *SchedcheckBridge) TakeScores() []framework.NodePluginScores {
	s := schedcheckScores
	schedcheckScores = nil
	return s
}
