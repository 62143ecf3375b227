// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// It keeps the per-node scores of the score phase for the adapter, which records the top nodes'
// on the attempt when the harness asks (Hello.record_scores).

package scheduler

import fwk "k8s.io/kube-scheduler/framework"

// schedcheckScores are the last score phase's scores; package-level like schedcheckState.
var schedcheckScores []fwk.NodePluginScores

// schedcheckNoteScores keeps the scores prioritizeNodes returned (no copy: the heap built from
// them reorders the elements in place, which changes no score, and the adapter takes them as soon
// as schedulePod returns).
func schedcheckNoteScores(scores []fwk.NodePluginScores) { schedcheckScores = scores }

// TakeScores returns the per-node scores of the last score phase (each plugin's normalized
// weighted score and the total) and forgets them; nil when no score phase ran (a single feasible
// node, or a batch hint that passed).
func (b *SchedcheckBridge) TakeScores() []fwk.NodePluginScores {
	s := schedcheckScores
	schedcheckScores = nil
	return s
}
