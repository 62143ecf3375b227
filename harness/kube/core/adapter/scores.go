package adapter

import (
	fwk "k8s.io/kube-scheduler/framework"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// topScores turns the score phase's scores (SchedcheckBridge.TakeScores) into Attempt.scores:
// the top `k` nodes (Hello.record_scores), none when k is 0 or no score phase ran.
func topScores(scores []fwk.NodePluginScores, k int) []*pb.NodeScore {
	if k <= 0 || len(scores) == 0 {
		return nil
	}
	nodes := make([]adapterkit.NodeScores, len(scores))
	for i, s := range scores {
		nodes[i] = adapterkit.NodeScores{Name: s.Name, Total: s.TotalScore}
		for _, p := range s.Scores {
			nodes[i].Plugins = append(nodes[i].Plugins, &pb.PluginScore{Plugin: p.Name, Score: p.Score})
		}
	}
	return adapterkit.TopScores(nodes, k)
}
