// Scheduling one pod against a snapshot (schedule_one.go v1.27): PreFilter, the nominated node
// first, Filter over nodes from the rotating start index until enough are feasible, then PreScore,
// Score, NormalizeScore and host selection. Sequential and seeded, so it is deterministic; the
// full set of top-scoring nodes is always reported because the real scheduler picks among them
// at random.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "reference/base/divisibility.h"
#include "reference/base/rand.h"
#include "reference/runtime/framework.h"
#include "reference/scheduler/tie_set.h"

namespace schedcheck::reference {

// Why no node was feasible (framework.Diagnosis).
struct Diagnosis {
  NodeToStatus node_to_status;
  std::set<std::string> unschedulable_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;
};

// The reason counts of a FitError message: how many rejected nodes gave each reason. Rejected
// nodes mostly share a few reason lists (copies of one status), so lists are counted first and
// their reasons only when the text is made.
class ReasonHistogram {
 public:
  void Add(const Status& status);
  // "1 Insufficient cpu, 10 x, 2 y": the items sorted as plain strings ("10 x" < "2 y").
  std::string Text() const;

 private:
  // A handful of distinct lists: a scan that starts at the last one found beats a tree. Each
  // entry holds a copy of a status with the list, which keeps the list (and its address) alive.
  std::vector<std::pair<Status, int>> per_list_;
  size_t last_ = 0;
};

// "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match ... ." (FitError.Error()).
std::string FitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis);
// The same for rejections counted elsewhere (no PreFilter message).
std::string FitErrorMessage(int num_all_nodes, const ReasonHistogram& rejections, const std::string& post_filter_msg);

inline constexpr std::string_view kNoNodesAvailableMsg = "no nodes available to schedule pods";

struct ScheduleResult {
  enum class Kind {
    kScheduled,      // node is set
    kFitError,       // no feasible node: diagnosis, num_all_nodes
    kNoNodes,        // the snapshot is empty
    kError,          // a plugin or internal error: error_status
  };
  Kind kind = Kind::kError;
  std::string node;                 // the chosen host
  TieSet ties;                      // every node with the top total score (in name order)
  // Filled only when the scheduler records details (the default; replay turns it off):
  std::vector<std::string> feasible;     // feasible nodes in evaluation order
  std::vector<NodePluginScores> scores;  // empty when no scoring ran (0 or 1 feasible node)
  int feasible_count = 0;
  int evaluated_nodes = 0;
  int num_all_nodes = 0;
  Diagnosis diagnosis;
  Status error_status;
};

// Holds what persists between cycles: the rotating start index and the tie-break generator.
class PodScheduler {
 public:
  PodScheduler(uint64_t seed, int32_t percentage_of_nodes_to_score)
      : rng_(seed), percentage_(percentage_of_nodes_to_score) {
    table_.keep_columns = false;  // only the totals are read
  }

  ScheduleResult SchedulePod(const Framework& fw, CycleState& state, const Pod& pod, const Snapshot& snapshot);

  // Whether results carry the feasible node names and per-plugin scores (explain, check, tests).
  // Off, a cycle allocates nothing per node; decisions are the same.
  void set_record_details(bool on) { record_details_ = on; }

  // numFeasibleNodesToFind (SEMANTICS §3.3).
  static int64_t NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage, int32_t global_percentage,
                                        int64_t num_all_nodes);
  size_t next_start_node_index() const { return next_start_node_index_; }

 private:
  // The nodes that passed the filters, with their name ranks read while the filters had the
  // NodeInfos in cache (host selection marks the ranks of thousands of tied nodes).
  struct FeasibleNodes {
    std::vector<const NodeInfo*> nodes;
    std::vector<uint32_t> ranks;
    void Add(const NodeInfo* node) { Add(node, node->name_rank()); }
    void Add(const NodeInfo* node, uint32_t rank) {
      nodes.push_back(node);
      ranks.push_back(rank);
    }
    size_t size() const { return nodes.size(); }
    bool empty() const { return nodes.empty(); }
    void clear() {
      nodes.clear();
      ranks.clear();
    }
  };

  // Evaluates nodes[(start + i) % n] in order, stopping after `num_to_find` feasible ones.
  // REQUIRES: `nodes` belong to `snapshot`.
  // Rejected nodes go to rejected_ (cheap: status copies share their reasons), their plugins to
  // `unschedulable_plugins`.
  Status FindNodesThatPassFilters(const Framework& fw, const CycleState& state, const Pod& pod,
                                  const Snapshot& snapshot, const std::vector<const NodeInfo*>& nodes,
                                  std::set<std::string>* unschedulable_plugins, FeasibleNodes* feasible);
  // Empties rejected_ into a node-name → status map.
  void MoveRejectedInto(NodeToStatus* out);
  // Reservoir sampling over the top total; fills `ties` with every top-scoring node.
  std::string SelectHost(const Snapshot& snapshot, const FeasibleNodes& feasible,
                         const std::vector<int64_t>& totals, TieSet* ties);

  size_t next_start_node_index_ = 0;
  Rand rng_;
  DivisibilityTable divisibility_;  // SelectHost's remainder tests, one per tied node
  int32_t percentage_;
  bool record_details_ = true;
  ScoreTable table_;                  // reused across cycles
  std::vector<std::pair<const NodeInfo*, Status>> rejected_;  // this cycle's rejected nodes
  std::vector<int32_t> latest_by_rank_;                        // MoveRejectedInto's scratch
  FeasibleNodes feasible_;                                     // this cycle's feasible nodes
  std::vector<uint8_t> nominated_by_rank_;                     // FindNodesThatPassFilters' scratch
  std::vector<const NodeInfo*> filter_batch_;                  // FindNodesThatPassFilters' scratch
  std::vector<uint32_t> filter_batch_ranks_;                   // the same: the batch's name ranks
  std::vector<BatchRejection> filter_batch_rejected_;          // the same
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_
