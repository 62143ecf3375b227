// NodeTree: node names grouped by zone, listed zone-interleaved (internal/cache/node_tree.go).
// This order is the order in which a scheduling cycle examines nodes.
#ifndef SCHEDCHECK_REFERENCE_CACHE_NODE_TREE_H_
#define SCHEDCHECK_REFERENCE_CACHE_NODE_TREE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// region + ":\x00:" + zone, each from the GA label or its beta predecessor (beta wins when both
// are set, as upstream's GetZoneKey); "" when neither is set.
std::string ZoneKey(const k8s::Node& node);

class NodeTree {
 public:
  void AddNode(const k8s::Node& node);
  void RemoveNode(const k8s::Node& node);
  // Moves the node to the end of its new zone when the zone key changed.
  void UpdateNode(const k8s::Node& old_node, const k8s::Node& new_node);
  // Zones in order of first appearance; the i-th node of every zone, then the (i+1)-th, ...
  std::vector<std::string> List() const;
  size_t size() const { return num_nodes_; }

 private:
  std::vector<std::string> zones_;
  std::map<std::string, std::vector<std::string>> tree_;
  std::set<std::string> members_;  // every node name in the tree, for the duplicate check
  size_t num_nodes_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_CACHE_NODE_TREE_H_
