#include "reference/framework/interface.h"

#include <algorithm>
#include <iterator>

namespace schedcheck::reference {

PreFilterResult PreFilterResult::Merge(const PreFilterResult& other) const {
  if (all_nodes) return other;
  if (other.all_nodes) return *this;
  PreFilterResult out;
  out.all_nodes = false;
  std::set_intersection(node_names.begin(), node_names.end(), other.node_names.begin(),
                        other.node_names.end(),
                        std::inserter(out.node_names, out.node_names.end()));
  return out;
}

}  // namespace schedcheck::reference
