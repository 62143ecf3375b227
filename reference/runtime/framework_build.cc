// Framework construction: plugin instantiation, per-point lists, MultiPoint expansion, weights.
#include <algorithm>
#include <map>
#include <set>

#include "reference/runtime/framework.h"

namespace schedcheck::reference {

namespace {

// Insertion-ordered set of names: upstream's orderedSet, deletion included. Go's delete
// (`list = append(list[:i-deletionCnt], list[i+1-deletionCnt:]...)`) shifts the rest of the
// slice left inside the same array and leaves the array's old last element where it was; a loop
// that took the slice before the deletion (`range list`) goes on reading that array. `backing()`
// is that array, `list()` the slice as it is now.
class OrderedNames {
 public:
  bool Insert(const std::string& name) {
    if (index_.count(name)) return false;
    index_[name] = static_cast<int64_t>(size_);
    backing_.resize(size_);
    backing_.push_back(name);
    ++size_;
    return true;
  }
  bool Has(const std::string& name) const { return index_.count(name) > 0; }
  void Delete(const std::string& name) {
    auto it = index_.find(name);
    if (it == index_.end()) return;
    // The position is the insertion index less the deletions so far: right as long as the
    // deletions come in insertion order, which is how expandMultiPointPlugins makes them.
    const size_t at = static_cast<size_t>(it->second - deletions_);
    index_.erase(it);
    std::copy(backing_.begin() + static_cast<std::ptrdiff_t>(at + 1),
              backing_.begin() + static_cast<std::ptrdiff_t>(size_),
              backing_.begin() + static_cast<std::ptrdiff_t>(at));
    --size_;
    ++deletions_;
  }
  std::vector<std::string> list() const {
    return {backing_.begin(), backing_.begin() + static_cast<std::ptrdiff_t>(size_)};
  }
  const std::vector<std::string>& backing() const { return backing_; }

 private:
  std::map<std::string, int64_t> index_;
  std::vector<std::string> backing_;
  size_t size_ = 0;
  int64_t deletions_ = 0;
};

// The order of one extension point's plugins after MultiPoint expansion (the reordering at the
// end of expandMultiPointPlugins): part 1 the explicit plugins also in MultiPoint (overrides),
// part 2 the MultiPoint-only ones, part 3 the remaining explicit ones. Part 1 walks the explicit
// list and deletes each override from it as it goes. v1.37 walks a copy (`slices.Clone`); v1.27
// walks the list being deleted from, that is the array as it was (`walks_a_copy` false): after
// a deletion the next plugin has moved onto the position just read and is passed by (it stays
// in the list, so part 3 places it after the MultiPoint plugins), and the positions past the
// shortened list still hold the last plugin, so it is read again — [A B C], all overrides,
// gives [A C C | MultiPoint | B]. No plugin is lost: every one is in part 1 or part 3.
std::vector<std::string> ExpandedOrder(OrderedNames enabled, const OrderedNames& overrides,
                                       const OrderedNames& multi_point_only, bool walks_a_copy) {
  std::vector<std::string> order;
  // Go's `range` takes the slice once: its length, and at v1.27 its array, not a copy of it,
  // so each position is read from the array as the deletions so far left it.
  const std::vector<std::string> copy = enabled.list();
  for (size_t i = 0; i < copy.size(); ++i) {
    const std::string name = walks_a_copy ? copy[i] : enabled.backing()[i];
    if (!overrides.Has(name)) continue;
    order.push_back(name);
    enabled.Delete(name);
  }
  for (const std::string& n : multi_point_only.list()) order.push_back(n);
  for (const std::string& n : enabled.list()) order.push_back(n);
  return order;
}

}  // namespace

class FrameworkBuilder {
 public:
  FrameworkBuilder(Framework* fw, const Profile& profile) : fw_(fw), profile_(profile) {}

  Outcome Build(const Registry& registry) {
    if (Outcome ok = Instantiate(registry); !ok) return ok;
    for (int i = 0; i < kNumExtensionPoints; ++i) {
      auto point = static_cast<ExtensionPoint>(i);
      if (point == ExtensionPoint::kMultiPoint) continue;
      if (Outcome ok = BuildPoint(point); !ok) return ok;
    }
    if (fw_->queue_sort_.empty()) return Error{Prefix() + "no queue sort plugin is enabled"};
    if (fw_->queue_sort_.size() > 1)
      return Error{Prefix() + "only one queue sort plugin can be enabled"};
    if (fw_->bind_.empty()) return Error{Prefix() + "at least one bind plugin is needed"};
    const std::vector<size_t> list_of = SharedScoreLists(fw_->score_);
    for (size_t j = 0; j < list_of.size(); ++j) fw_->repeats_a_score_plugin_ |= list_of[j] != j;
    return ScoreWeights();
  }

 private:
  std::string Prefix() const { return "profile \"" + profile_.scheduler_name + "\": "; }
  // Without a handle (plugin tests) as v1.37.
  bool WalksACopy() const {
    return fw_->handle_ == nullptr || fw_->handle_->features.multi_point_expansion_walks_a_copy;
  }

  Outcome Instantiate(const Registry& registry) {
    for (const auto& [name, args] : profile_.plugin_config) {
      if (!registry.Find(name))
        return Error{Prefix() + "pluginConfig: unknown plugin \"" + name + "\""};
    }
    for (const PluginSet& set : profile_.plugins) {
      for (const PluginEntry& e : set.enabled) {
        if (fw_->plugins_.count(e.name)) continue;
        const PluginFactory* factory = registry.Find(e.name);
        if (!factory) return Error{Prefix() + "plugin \"" + e.name + "\" does not exist"};
        auto args_it = profile_.plugin_config.find(e.name);
        nlohmann::json args =
            args_it == profile_.plugin_config.end() ? nlohmann::json() : args_it->second;
        auto plugin = (*factory)(args, *fw_->handle_);
        if (!plugin.ok()) return Error{Prefix() + "plugin \"" + e.name + "\": " + plugin.message()};
        fw_->plugins_[e.name] = std::move(*plugin);
      }
    }
    return Outcome::Ok();
  }

  template <typename T>
  Outcome Fill(ExtensionPoint point, std::vector<T*>& out) {
    const PluginSet& explicit_set = profile_.at(point);
    const PluginSet& multi = profile_.at(ExtensionPoint::kMultiPoint);
    std::string point_name(ExtensionPointName(point));
    // Explicit per-point list (updatePluginList).
    OrderedNames enabled;
    for (const PluginEntry& e : explicit_set.enabled) {
      if (!dynamic_cast<T*>(fw_->plugins_.at(e.name).get())) {
        return Error{Prefix() + "plugin \"" + e.name + "\" does not extend " + point_name +
                     " plugin"};
      }
      if (!enabled.Insert(e.name))
        return Error{Prefix() + "plugin \"" + e.name + "\" already registered as \"" + point_name +
                     "\""};
    }
    std::set<std::string> disabled;
    for (const PluginEntry& e : explicit_set.disabled) disabled.insert(e.name);
    std::vector<std::string> order = enabled.list();
    if (!multi.enabled.empty() && !disabled.count("*")) {
      // MultiPoint expansion (expandMultiPointPlugins).
      OrderedNames multi_enabled, overrides;
      for (const PluginEntry& e : multi.enabled) {
        if (!dynamic_cast<T*>(fw_->plugins_.at(e.name).get())) continue;
        if (disabled.count(e.name)) continue;
        if (enabled.Has(e.name)) {
          overrides.Insert(e.name);
          continue;
        }
        if (!multi_enabled.Insert(e.name)) {
          return Error{Prefix() + "plugin \"" + e.name + "\" already registered as \"" +
                       point_name + "\""};
        }
      }
      order = ExpandedOrder(enabled, overrides, multi_enabled, WalksACopy());
    }
    for (const std::string& n : order) out.push_back(dynamic_cast<T*>(fw_->plugins_.at(n).get()));
    return Outcome::Ok();
  }

  Outcome BuildPoint(ExtensionPoint point) {
    switch (point) {
      case ExtensionPoint::kPreEnqueue:
        return Fill(point, fw_->pre_enqueue_);
      case ExtensionPoint::kQueueSort:
        return Fill(point, fw_->queue_sort_);
      case ExtensionPoint::kPreFilter:
        return Fill(point, fw_->pre_filter_);
      case ExtensionPoint::kFilter:
        return Fill(point, fw_->filter_);
      case ExtensionPoint::kPostFilter:
        return Fill(point, fw_->post_filter_);
      case ExtensionPoint::kPreScore:
        return Fill(point, fw_->pre_score_);
      case ExtensionPoint::kScore:
        return Fill(point, fw_->score_);
      case ExtensionPoint::kReserve:
        return Fill(point, fw_->reserve_);
      case ExtensionPoint::kPermit:
        return Fill(point, fw_->permit_);
      case ExtensionPoint::kPreBind:
        return Fill(point, fw_->pre_bind_);
      case ExtensionPoint::kBind:
        return Fill(point, fw_->bind_);
      case ExtensionPoint::kPostBind:
        return Fill(point, fw_->post_bind_);
      case ExtensionPoint::kMultiPoint:
        break;
    }
    return Outcome::Ok();
  }

  // getScoreWeights: explicit Score weights first, then MultiPoint ones; 0 becomes 1.
  Outcome ScoreWeights() {
    std::vector<PluginEntry> entries = profile_.at(ExtensionPoint::kScore).enabled;
    for (const PluginEntry& e : profile_.at(ExtensionPoint::kMultiPoint).enabled)
      entries.push_back(e);
    int64_t total = 0;
    for (const PluginEntry& e : entries) {
      if (!dynamic_cast<ScorePlugin*>(fw_->plugins_.at(e.name).get())) continue;
      if (fw_->score_weight_.count(e.name)) continue;
      int64_t w = e.weight == 0 ? 1 : e.weight;
      if (w * kMaxNodeScore > INT64_MAX - total)
        return Error{Prefix() + "total score of Score plugins could overflow"};
      total += w * kMaxNodeScore;
      fw_->score_weight_[e.name] = w;
    }
    return Outcome::Ok();
  }

  Framework* fw_;
  const Profile& profile_;
};

Result<std::unique_ptr<Framework>> Framework::Create(const Profile& profile,
                                                     const Registry& registry,
                                                     const Handle* handle) {
  std::unique_ptr<Framework> fw(new Framework());
  fw->scheduler_name_ = profile.scheduler_name;
  fw->percentage_ = profile.percentage_of_nodes_to_score;
  fw->handle_ = handle;
  // The run's gates reach the default plugin list only here (profiles are parsed before).
  const Profile gated =
      handle == nullptr ? profile : WithGatedDefaultPlugins(profile, handle->features);
  FrameworkBuilder builder(fw.get(), gated);
  if (Outcome ok = builder.Build(registry); !ok) return ok.error();
  return fw;
}

std::vector<std::string> Framework::PluginNames(ExtensionPoint point) const {
  std::vector<std::string> names;
  auto collect = [&](const auto& list) {
    for (const auto* p : list) names.emplace_back(p->Name());
  };
  switch (point) {
    case ExtensionPoint::kPreEnqueue:
      collect(pre_enqueue_);
      break;
    case ExtensionPoint::kQueueSort:
      collect(queue_sort_);
      break;
    case ExtensionPoint::kPreFilter:
      collect(pre_filter_);
      break;
    case ExtensionPoint::kFilter:
      collect(filter_);
      break;
    case ExtensionPoint::kPostFilter:
      collect(post_filter_);
      break;
    case ExtensionPoint::kPreScore:
      collect(pre_score_);
      break;
    case ExtensionPoint::kScore:
      collect(score_);
      break;
    case ExtensionPoint::kReserve:
      collect(reserve_);
      break;
    case ExtensionPoint::kPermit:
      collect(permit_);
      break;
    case ExtensionPoint::kPreBind:
      collect(pre_bind_);
      break;
    case ExtensionPoint::kBind:
      collect(bind_);
      break;
    case ExtensionPoint::kPostBind:
      collect(post_bind_);
      break;
    case ExtensionPoint::kMultiPoint:
      for (const auto& [n, p] : plugins_) names.push_back(n);
      break;
  }
  return names;
}

int64_t Framework::ScoreWeight(const std::string& plugin) const {
  auto it = score_weight_.find(plugin);
  return it == score_weight_.end() ? 0 : it->second;
}

std::vector<std::pair<ClusterEvent, std::string>> Framework::EventRegistrations() const {
  // Plugins without EnqueueExtensions get every event on the resources the v1.27 scheduler
  // watched by default.
  static const std::vector<ClusterEvent> kDefaultEvents = {
      {std::string(resource::kPod), action::kAll, ""},
      {std::string(resource::kNode), action::kAll, ""},
      {std::string(resource::kCSINode), action::kAll, ""},
      {std::string(resource::kPersistentVolume), action::kAll, ""},
      {std::string(resource::kPersistentVolumeClaim), action::kAll, ""},
      {std::string(resource::kStorageClass), action::kAll, ""},
  };
  std::vector<std::pair<ClusterEvent, std::string>> out;
  for (const auto& [name, plugin] : plugins_) {
    const auto* ext = dynamic_cast<const EnqueueExtensions*>(plugin.get());
    const std::vector<ClusterEvent> events = ext ? ext->EventsToRegister() : kDefaultEvents;
    for (const ClusterEvent& e : events) out.push_back({e, name});
  }
  return out;
}

std::vector<std::pair<ClusterEventWithHint, std::string>> Framework::EventRegistrationsWithHints()
    const {
  // UnrollWildCardResource: the resources a wildcard registration stands for, PodGroup only
  // with GenericWorkload.
  static const std::vector<std::string_view> kWildCardResources = {
      resource::kAssignedPod,
      resource::kUnscheduledPod,
      resource::kTargetPod,
      resource::kNode,
      resource::kPersistentVolume,
      resource::kPersistentVolumeClaim,
      resource::kCSINode,
      resource::kCSIDriver,
      resource::kCSIStorageCapacity,
      resource::kStorageClass,
      std::string_view("resource.k8s.io/ResourceClaim"),
      std::string_view("resource.k8s.io/DeviceClass")};
  std::vector<ClusterEventWithHint> default_events;
  for (std::string_view r : kWildCardResources)
    default_events.push_back({{std::string(r), action::kAllV1_37, ""}, nullptr});
  if (handle_ != nullptr && handle_->features.generic_workload) {
    default_events.push_back({{std::string(resource::kPodGroup), action::kAllV1_37, ""}, nullptr});
  }
  std::vector<std::pair<ClusterEventWithHint, std::string>> out;
  for (const auto& [name, plugin] : plugins_) {
    const Plugin* p = plugin.get();
    // shouldHaveEnqueueExtensions: only the points whose rejection leaves a pod unschedulable.
    if (!dynamic_cast<const PreEnqueuePlugin*>(p) && !dynamic_cast<const PreFilterPlugin*>(p) &&
        !dynamic_cast<const FilterPlugin*>(p) && !dynamic_cast<const ReservePlugin*>(p) &&
        !dynamic_cast<const PermitPlugin*>(p)) {
      continue;
    }
    if (const auto* ext = dynamic_cast<const QueueingHintExtensions*>(p)) {
      for (const ClusterEventWithHint& e : ext->EventsToRegisterWithHints())
        out.push_back({e, name});
    } else if (const auto* old = dynamic_cast<const EnqueueExtensions*>(p)) {
      // A plugin with only the v1.27 interface (e.g. CreationDelay) registers its events
      // without hints (each answers Queue); an empty list registers nothing, as upstream's
      // EnqueueExtensions returning no event.
      for (ClusterEvent e : old->EventsToRegister()) {
        if (e.action == action::kAll) e.action = action::kAllV1_37;
        out.push_back({{std::move(e), nullptr}, name});
      }
    } else {
      for (const ClusterEventWithHint& e : default_events) out.push_back({e, name});
    }
  }
  return out;
}

}  // namespace schedcheck::reference
