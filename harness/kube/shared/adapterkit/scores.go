package adapterkit

import (
	"sort"

	"schedcheck.local/kube/common/pb"
)

// NodeScores is one node's result of a score phase in version-neutral terms: upstream's
// NodePluginScores (Name, TotalScore, and each plugin's weighted Score).
type NodeScores struct {
	Name    string
	Total   int64
	Plugins []*pb.PluginScore
}

// TopScores returns Attempt.scores for Hello.record_scores = k (docs/FORMATS.md#scores): the k
// nodes with the highest totals, highest first, equal totals in name order, each node's plugins in
// name order. Upstream picks among equal totals at random, so the order is made canonical here,
// as the reference makes it.
func TopScores(nodes []NodeScores, k int) []*pb.NodeScore {
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := nodes[order[a]], nodes[order[b]]
		if x.Total != y.Total {
			return x.Total > y.Total
		}
		return x.Name < y.Name
	})
	if k < len(order) {
		order = order[:k]
	}
	out := make([]*pb.NodeScore, 0, len(order))
	for _, i := range order {
		plugins := append([]*pb.PluginScore(nil), nodes[i].Plugins...)
		sort.Slice(plugins, func(a, b int) bool { return plugins[a].Plugin < plugins[b].Plugin })
		out = append(out, &pb.NodeScore{Node: nodes[i].Name, Total: nodes[i].Total, Plugins: plugins})
	}
	return out
}
