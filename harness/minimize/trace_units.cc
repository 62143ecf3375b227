#include "harness/minimize/trace_units.h"

#include <map>

#include "harness/minimize/object_fields.h"

namespace schedcheck::minimize {
namespace {

// Marks each event of `events` (indices into `all`) that breaks its object's lifecycle: an ADDED
// of an object that exists, a MODIFIED or DELETED of one that does not.
template <typename Indices>
std::vector<bool> Violations(const std::vector<trace::Record>& all,
                             const std::vector<std::string>& objects, const Indices& events) {
  std::vector<bool> out(all.size(), false);
  std::map<std::string, bool> exists;
  for (size_t i : events) {
    bool& live = exists[objects[i]];
    switch (all[i].api().type()) {
      case trace::ADDED:
        out[i] = live;
        live = true;
        break;
      case trace::MODIFIED:
        out[i] = !live;
        live = true;  // an informer treats it as an add
        break;
      case trace::DELETED:
        out[i] = !live;
        live = false;
        break;
      default:
        break;
    }
  }
  return out;
}

}  // namespace

std::string ObjectKey(const trace::ApiEvent& e) {
  static const std::set<std::string> kClusterScoped = {
      "Node",    "Namespace",     "PriorityClass", "PersistentVolume", "StorageClass",
      "CSINode", "ResourceSlice", "DeviceClass",   "DeviceTaintRule"};
  const std::string kind = KindOf(e);
  const k8s::ObjectMeta* meta = MetadataOf(e);
  if (meta == nullptr) return kind;
  if (kClusterScoped.count(kind) && meta->namespace_().empty()) return kind + "/" + meta->name();
  return kind + "/" + (meta->namespace_().empty() ? "default" : meta->namespace_()) + "/" +
         meta->name();
}

std::string Describe(const FieldUnit& f) {
  return f.kind + " " + f.object + (f.name.empty() ? "" : " " + f.name);
}

TraceUnits::TraceUnits(const std::vector<trace::Record>& records) {
  for (const trace::Record& r : records) {
    if (!r.has_api()) continue;
    events_.push_back(r);
    objects_.push_back(ObjectKey(r.api()));
  }
  std::vector<size_t> all(events_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  input_violation_ = Violations(events_, objects_, all);
}

bool TraceUnits::Valid(const std::vector<size_t>& kept) const {
  const std::vector<bool> violations = Violations(events_, objects_, kept);
  for (size_t i : kept) {
    if (violations[i] && !input_violation_[i]) return false;
  }
  return true;
}

std::vector<std::string> TraceUnits::Objects(const std::vector<size_t>& kept) const {
  std::vector<std::string> out;
  std::map<std::string, bool> seen;
  for (size_t i : kept) {
    if (!seen[objects_[i]]) out.push_back(objects_[i]);
    seen[objects_[i]] = true;
  }
  return out;
}

std::vector<FieldUnit> TraceUnits::Fields(const std::vector<size_t>& kept,
                                          const std::set<FieldUnit>& removed) const {
  std::vector<FieldUnit> out;
  std::set<FieldUnit> seen = removed;
  for (size_t i : kept) {
    for (FieldUnit& f : FieldsOf(events_[i].api(), objects_[i])) {
      if (seen.insert(f).second) out.push_back(std::move(f));
    }
  }
  return out;
}

std::vector<trace::Record> TraceUnits::Build(const std::vector<size_t>& kept,
                                             const std::set<FieldUnit>& removed) const {
  std::vector<trace::Record> out;
  out.reserve(kept.size());
  for (size_t i : kept) {
    out.push_back(events_[i]);
    if (removed.empty()) continue;
    // The removed fields are ordered by object first: visit this object's only.
    for (auto it = removed.lower_bound(FieldUnit{objects_[i], "", ""});
         it != removed.end() && it->object == objects_[i]; ++it) {
      RemoveField(*it, out.back().mutable_api());
    }
  }
  return out;
}

}  // namespace schedcheck::minimize
