#include "reference/accel/node_volume_limits/fast_node_volume_limits.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

// The value of `key` in a vector sorted by key, or null.
template <typename Vector, typename Key>
const auto* FindSorted(const Vector& v, const Key& key) {
  auto it = std::lower_bound(v.begin(), v.end(), key,
                             [](const auto& entry, const Key& k) { return entry.first < k; });
  return it != v.end() && it->first == key ? &it->second : nullptr;
}

bool ListsDriver(const k8s::CSINode* csi_node, const std::string& driver) {
  if (csi_node == nullptr) return false;
  for (const auto& d : csi_node->spec().drivers()) {
    if (d.name() == driver) return true;
  }
  return false;
}

}  // namespace

template <typename Plain>
typename FastNodeVolumeLimitsOf<Plain>::NodeEntry& FastNodeVolumeLimitsOf<Plain>::Refresh(
    const NodeInfo& node, const ClusterObjects& objects) {
  bool fresh = false;
  NodeEntry& e = nodes_.For(node, &fresh);
  if (!fresh && e.csi.stamp.Holds(objects, objects.csi_node_changes)) return e;
  // A new generation or another CSINode: everything read from them again.
  const int64_t generation = e.generation;
  e = NodeEntry{};
  e.generation = generation;
  e.csi = ReadNodeCsi(objects, *node.node(), this->handle_.features);
  const std::map<std::string, int64_t> limits = this->VolumeLimits(node, e.csi.csi_node);
  e.limits.assign(limits.begin(), limits.end());
  return e;
}

template <typename Plain>
void FastNodeVolumeLimitsOf<Plain>::FillAttached(const NodeInfo& node,
                                                 const ClusterObjects& objects,
                                                 NodeEntry* e) const {
  std::map<std::string, std::string> attached;
  e->attached_error = Status();
  bool found_all = true;
  for (const PodInfoPtr& existing : node.pods()) {
    found_all = found_all && FindsAllVolumeObjects(*existing->pod, objects);
    Status s = this->AttachableVolumes(*existing->pod, e->csi.csi_node, false, &attached);
    if (!s.IsSuccess()) {
      e->attached_error = std::move(s);
      break;
    }
  }
  e->attached.assign(attached.begin(), attached.end());
  std::map<std::string, int64_t> count;
  for (const auto& [unique_name, key] : attached) ++count[key];
  e->attached_count.assign(count.begin(), count.end());
  e->attached_stamp = StorageStamp(objects, objects.volume_changes, found_all);
  e->attached_known = true;
}

template <typename Plain>
const typename FastNodeVolumeLimitsOf<Plain>::PodVolumes&
FastNodeVolumeLimitsOf<Plain>::ForMigrated(const Pod& pod, const NodeCsi& csi) {
  for (const PodVolumes& p : batch_) {
    if (p.migrated == csi.migrated) return p;
  }
  PodVolumes p;
  p.migrated = csi.migrated;
  std::map<std::string, std::string> volumes;
  bool not_found = false;
  // Resolved against this node's CSINode: any node with the same bits gives the same.
  p.error = this->AttachableVolumes(pod, csi.csi_node, true, &volumes, &not_found);
  if (!p.error.IsSuccess() && this->csi_node_only() && not_found) {
    p.error = Status(Code::kUnschedulableAndUnresolvable, p.error.Message());
  }
  p.volumes.assign(volumes.begin(), volumes.end());
  for (const auto& [unique_name, driver] : p.volumes) {
    // DriverInstalledOnNode without a CSINode is false exactly when the driver opted in.
    p.driver_required.push_back(!this->DriverInstalledOnNode(driver, nullptr));
  }
  batch_.push_back(std::move(p));
  return batch_.back();
}

template <typename Plain>
void FastNodeVolumeLimitsOf<Plain>::FilterNodes(const CycleState&, const Pod& pod, NodeBatch nodes,
                                                std::vector<BatchRejection>* rejected) {
  if (pod.obj.spec().volumes().empty()) return;
  const ClusterObjects& objects = StorageObjectsOf(this->handle_);
  batch_.clear();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    const uint32_t index = static_cast<uint32_t>(i);
    if (node.node() == nullptr) {
      rejected->push_back({index, Status::Error("node not found")});
      continue;
    }
    NodeEntry& e = Refresh(node, objects);
    const PodVolumes& p = ForMigrated(pod, e.csi);
    if (!p.error.IsSuccess()) {
      rejected->push_back({index, p.error});
      continue;
    }
    if (p.volumes.empty()) continue;
    if (this->handle_.features.volume_limit_scaling) {
      // The plain rule's order: volumes by unique name, the first missing driver.
      bool missing = false;
      for (size_t j = 0; j < p.volumes.size() && !missing; ++j) {
        if (p.driver_required[j] == 0 || ListsDriver(e.csi.csi_node, p.volumes[j].second)) continue;
        missing = true;
        rejected->push_back(
            {index, Status(Code::kUnschedulable,
                           p.volumes[j].second + " CSI driver is not installed on the node")});
      }
      if (missing) continue;
    }
    if (e.limits.empty()) continue;
    if (!e.attached_known || !e.attached_stamp.Holds(objects, objects.volume_changes)) {
      FillAttached(node, objects, &e);
    }
    if (!e.attached_error.IsSuccess()) {
      rejected->push_back({index, e.attached_error});
      continue;
    }
    // The pod's volumes not yet attached, counted by key (few: a pod's volumes).
    std::vector<std::pair<std::string_view, int64_t>>& new_count = new_count_;
    new_count.clear();
    for (const auto& [unique_name, key] : p.volumes) {
      if (FindSorted(e.attached, unique_name) != nullptr) continue;
      auto it = std::find_if(new_count.begin(), new_count.end(),
                             [&key = key](const auto& c) { return c.first == key; });
      if (it == new_count.end()) {
        new_count.emplace_back(key, 1);
      } else {
        ++it->second;
      }
    }
    for (const auto& [key, count] : new_count) {
      const int64_t* limit = FindSorted(e.limits, key);
      if (limit == nullptr) continue;
      const int64_t* attached = FindSorted(e.attached_count, key);
      if ((attached != nullptr ? *attached : 0) + count > *limit) {
        rejected->push_back(
            {index, Status(Code::kUnschedulable, std::string(kErrReasonMaxVolumeCountExceeded))});
        break;
      }
    }
  }
}

template class FastNodeVolumeLimitsOf<NodeVolumeLimits>;
template class FastNodeVolumeLimitsOf<NodeVolumeLimitsV1_37>;

Result<std::unique_ptr<Plugin>> FastNodeVolumeLimits::New(const PluginArgs& args,
                                                          const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NodeVolumeLimits::New(args, handle);
  if (!plain.ok()) return plain.error();
  if (handle.features.volume_limits_from_csi_node_only) {
    return std::unique_ptr<Plugin>(
        std::make_unique<FastNodeVolumeLimitsOf<NodeVolumeLimitsV1_37>>(handle));
  }
  return std::unique_ptr<Plugin>(
      std::make_unique<FastNodeVolumeLimitsOf<NodeVolumeLimits>>(handle));
}

}  // namespace schedcheck::reference
