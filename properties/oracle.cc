#include "properties/oracle.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

namespace schedcheck::properties {
namespace {

using Labels = google::protobuf::Map<std::string, std::string>;
using Pair = std::pair<std::string, std::string>;  // (topology key, value)

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "oracle: %s\n", what.c_str());
  std::abort();
}

const std::string* Label(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

bool InValues(const google::protobuf::RepeatedPtrField<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// In / NotIn / Exists / DoesNotExist against a label set.
bool RequirementMatches(const std::string& key, const std::string& op,
                        const google::protobuf::RepeatedPtrField<std::string>& values,
                        const Labels& labels) {
  const std::string* v = Label(labels, key);
  if (op == "In") return v != nullptr && InValues(values, *v);
  if (op == "NotIn") return v == nullptr || !InValues(values, *v);
  if (op == "Exists") return v != nullptr;
  if (op == "DoesNotExist") return v == nullptr;
  Die("unknown operator " + op);
}

std::vector<const k8s::Pod*> PodsOn(const ClusterState& state, const std::string& node) {
  std::vector<const k8s::Pod*> out;
  for (const k8s::Pod& p : state.bound) {
    if (p.spec().node_name() == node) out.push_back(&p);
  }
  return out;
}

const std::string& Ns(const k8s::Pod& p) { return p.metadata().namespace_(); }

// An affinity term of `owner` matches `target`: namespace (the term's list, or the owner's own
// namespace) and label selector.
bool TermMatches(const k8s::PodAffinityTerm& term, const k8s::Pod& owner, const k8s::Pod& target) {
  bool ns_ok = term.namespaces_size() == 0 ? Ns(target) == Ns(owner)
                                           : InValues(term.namespaces(), Ns(target));
  return ns_ok && term.has_label_selector() &&
         OracleSelectorMatches(term.label_selector(), target.metadata().labels());
}

const google::protobuf::RepeatedPtrField<k8s::PodAffinityTerm>& AntiTerms(const k8s::Pod& p) {
  return p.spec()
      .affinity()
      .pod_anti_affinity()
      .required_during_scheduling_ignored_during_execution();
}
const google::protobuf::RepeatedPtrField<k8s::PodAffinityTerm>& AffinityTerms(const k8s::Pod& p) {
  return p.spec().affinity().pod_affinity().required_during_scheduling_ignored_during_execution();
}

bool Tolerates(const k8s::Toleration& t, const k8s::Taint& taint) {
  if (!t.effect().empty() && t.effect() != taint.effect()) return false;
  if (t.operator_() == "Exists") return t.key().empty() || t.key() == taint.key();
  return t.key() == taint.key() && t.value() == taint.value();
}

bool Tolerated(const k8s::Pod& pod, const k8s::Taint& taint) {
  for (const k8s::Toleration& t : pod.spec().tolerations()) {
    if (Tolerates(t, taint)) return true;
  }
  return false;
}

bool MatchesNodeSelection(const k8s::Pod& pod, const k8s::Node& node) {
  const Labels& labels = node.metadata().labels();
  for (const auto& [k, v] : pod.spec().node_selector()) {
    const std::string* got = Label(labels, k);
    if (got == nullptr || *got != v) return false;
  }
  const auto& na = pod.spec().affinity().node_affinity();
  if (!na.has_required_during_scheduling_ignored_during_execution()) return true;
  for (const k8s::NodeSelectorTerm& term :
       na.required_during_scheduling_ignored_during_execution().node_selector_terms()) {
    if (term.match_expressions_size() == 0) continue;
    bool all = true;
    for (const auto& r : term.match_expressions())
      all = all && RequirementMatches(r.key(), r.operator_(), r.values(), labels);
    if (all) return true;
  }
  return false;
}

}  // namespace

const k8s::Node* ClusterState::FindNode(const std::string& name) const {
  for (const k8s::Node& n : nodes) {
    if (n.metadata().name() == name) return &n;
  }
  return nullptr;
}

int64_t OracleQuantity(const std::string& resource, const std::string& text) {
  static const std::map<std::string, int64_t> kSuffix = {{"", 1},           {"Ki", 1LL << 10},
                                                         {"Mi", 1LL << 20}, {"Gi", 1LL << 30},
                                                         {"k", 1000},       {"M", 1000000}};
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  const std::string number = text.substr(0, i);
  const std::string suffix = text.substr(i);
  if (number.empty()) Die("bad quantity " + text);
  // value * 1000 as an exact integer (at most three decimals in the vocabulary).
  size_t dot = number.find('.');
  int64_t whole = std::stoll(number.substr(0, dot));
  int64_t thousandths = whole * 1000;
  if (dot != std::string::npos) {
    std::string frac = (number.substr(dot + 1) + "000").substr(0, 3);
    thousandths += std::stoll(frac);
  }
  if (suffix == "m")
    return resource == "cpu" ? thousandths / 1000 : (thousandths / 1000 + 999) / 1000;
  auto it = kSuffix.find(suffix);
  if (it == kSuffix.end()) Die("bad quantity suffix " + text);
  if (resource == "cpu") return thousandths * it->second;
  return (thousandths * it->second + 999) / 1000;
}

int64_t OracleRequest(const k8s::Pod& pod, const std::string& resource) {
  auto get = [&](const k8s::Container& c) -> int64_t {
    auto it = c.resources().requests().find(resource);
    return it == c.resources().requests().end() ? 0 : OracleQuantity(resource, it->second);
  };
  int64_t sum = 0;
  for (const k8s::Container& c : pod.spec().containers()) sum += get(c);
  for (const k8s::Container& c : pod.spec().init_containers()) sum = std::max(sum, get(c));
  auto it = pod.spec().overhead().find(resource);
  if (it != pod.spec().overhead().end()) sum += OracleQuantity(resource, it->second);
  return sum;
}

std::string OracleNodeResourcesFit(const ClusterState& state, const k8s::Pod& pod,
                                   const std::string& node) {
  const k8s::Node* n = state.FindNode(node);
  std::vector<const k8s::Pod*> pods = PodsOn(state, node);
  auto alloc = [&](const std::string& r) -> int64_t {
    auto it = n->status().allocatable().find(r);
    return it == n->status().allocatable().end() ? 0 : OracleQuantity(r, it->second);
  };
  if (static_cast<int64_t>(pods.size()) + 1 > alloc("pods")) return "Too many pods";
  // v1.27: a pod requesting nothing fits; otherwise every resource is compared, a zero request
  // included (so a zero-cpu pod does not fit a node already over-committed on cpu).
  if (OracleRequest(pod, "cpu") == 0 && OracleRequest(pod, "memory") == 0) return "";
  for (const std::string r : {"cpu", "memory"}) {
    int64_t want = OracleRequest(pod, r);
    int64_t used = 0;
    for (const k8s::Pod* p : pods) used += OracleRequest(*p, r);
    if (want > alloc(r) - used) return "Insufficient " + r;
  }
  return "";
}

std::string OracleNodePorts(const ClusterState& state, const k8s::Pod& pod,
                            const std::string& node) {
  auto ports = [](const k8s::Pod& p) {
    std::vector<Pair> out;
    for (const k8s::Container& c : p.spec().containers()) {
      for (const k8s::ContainerPort& port : c.ports()) {
        if (port.host_port() > 0)
          out.emplace_back(port.protocol().empty() ? "TCP" : port.protocol(),
                           std::to_string(port.host_port()));
      }
    }
    return out;
  };
  for (const k8s::Pod* p : PodsOn(state, node)) {
    for (const Pair& used : ports(*p)) {
      for (const Pair& want : ports(pod)) {
        if (used == want) return "host port conflict " + want.first + "/" + want.second;
      }
    }
  }
  return "";
}

std::string OracleTaintToleration(const ClusterState& state, const k8s::Pod& pod,
                                  const std::string& node) {
  for (const k8s::Taint& taint : state.FindNode(node)->spec().taints()) {
    if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
    if (!Tolerated(pod, taint))
      return "untolerated taint " + taint.key() + "=" + taint.value() + ":" + taint.effect();
  }
  return "";
}

std::string OracleNodeUnschedulable(const ClusterState& state, const k8s::Pod& pod,
                                    const std::string& node) {
  if (!state.FindNode(node)->spec().unschedulable()) return "";
  k8s::Taint taint;
  taint.set_key("node.kubernetes.io/unschedulable");
  taint.set_effect("NoSchedule");
  return Tolerated(pod, taint) ? "" : "node is unschedulable";
}

std::string OracleNodeAffinity(const ClusterState& state, const k8s::Pod& pod,
                               const std::string& node) {
  return MatchesNodeSelection(pod, *state.FindNode(node)) ? ""
                                                          : "node selector / affinity mismatch";
}

std::string OracleInterPodAffinity(const ClusterState& state, const k8s::Pod& pod,
                                   const std::string& node) {
  const Labels& here = state.FindNode(node)->metadata().labels();
  std::map<Pair, int> existing_anti, incoming_anti, affinity;
  for (const k8s::Pod& e : state.bound) {
    const k8s::Node* m = state.FindNode(e.spec().node_name());
    if (m == nullptr) continue;
    const Labels& ml = m->metadata().labels();
    for (const auto& t : AntiTerms(e)) {
      if (TermMatches(t, e, pod) && Label(ml, t.topology_key()))
        existing_anti[{t.topology_key(), ml.at(t.topology_key())}]++;
    }
    for (const auto& t : AntiTerms(pod)) {
      if (TermMatches(t, pod, e) && Label(ml, t.topology_key()))
        incoming_anti[{t.topology_key(), ml.at(t.topology_key())}]++;
    }
    bool all = AffinityTerms(pod).size() > 0;
    for (const auto& t : AffinityTerms(pod)) all = all && TermMatches(t, pod, e);
    if (!all) continue;
    for (const auto& t : AffinityTerms(pod)) {
      if (Label(ml, t.topology_key())) affinity[{t.topology_key(), ml.at(t.topology_key())}]++;
    }
  }
  for (const auto& [k, v] : here) {
    if (existing_anti.count({k, v})) return "an existing pod's anti-affinity";
  }
  for (const auto& t : AntiTerms(pod)) {
    const std::string* v = Label(here, t.topology_key());
    if (v && incoming_anti.count({t.topology_key(), *v})) return "the pod's anti-affinity";
  }
  bool pods_exist = true;
  for (const auto& t : AffinityTerms(pod)) {
    const std::string* v = Label(here, t.topology_key());
    if (v == nullptr) return "node lacks affinity topology key";
    if (!affinity.count({t.topology_key(), *v})) pods_exist = false;
  }
  if (pods_exist) return "";
  bool self = true;
  for (const auto& t : AffinityTerms(pod)) self = self && TermMatches(t, pod, pod);
  return affinity.empty() && self ? "" : "the pod's affinity";
}

std::string OraclePodTopologySpread(const ClusterState& state, const k8s::Pod& pod,
                                    const std::string& node) {
  std::vector<const k8s::TopologySpreadConstraint*> cs;
  for (const auto& c : pod.spec().topology_spread_constraints()) {
    if (c.when_unsatisfiable() == "DoNotSchedule") cs.push_back(&c);
  }
  if (cs.empty()) return "";
  std::map<Pair, int> counts;
  for (const k8s::Node& n : state.nodes) {
    const Labels& nl = n.metadata().labels();
    bool has_all = true;
    for (const auto* c : cs) has_all = has_all && Label(nl, c->topology_key());
    if (!has_all || !MatchesNodeSelection(pod, n)) continue;
    for (const auto* c : cs) {
      int& count = counts[{c->topology_key(), nl.at(c->topology_key())}];
      for (const k8s::Pod* p : PodsOn(state, n.metadata().name())) {
        if (Ns(*p) == Ns(pod) && OracleSelectorMatches(c->label_selector(), p->metadata().labels()))
          ++count;
      }
    }
  }
  const Labels& here = state.FindNode(node)->metadata().labels();
  for (const auto* c : cs) {
    const std::string* v = Label(here, c->topology_key());
    if (v == nullptr) return "node lacks spread topology key";
    int64_t min = INT32_MAX;
    for (const auto& [pair, n] : counts) {
      if (pair.first == c->topology_key()) min = std::min<int64_t>(min, n);
    }
    auto it = counts.find({c->topology_key(), *v});
    int64_t match = it == counts.end() ? 0 : it->second;
    int64_t self = OracleSelectorMatches(c->label_selector(), pod.metadata().labels()) ? 1 : 0;
    if (match + self - min > c->max_skew()) return "spread skew on " + c->topology_key() + "=" + *v;
  }
  return "";
}

std::string OracleFilter(const std::string& plugin, const ClusterState& state, const k8s::Pod& pod,
                         const std::string& node) {
  if (plugin == "NodeResourcesFit") return OracleNodeResourcesFit(state, pod, node);
  if (plugin == "NodePorts") return OracleNodePorts(state, pod, node);
  if (plugin == "TaintToleration") return OracleTaintToleration(state, pod, node);
  if (plugin == "NodeUnschedulable") return OracleNodeUnschedulable(state, pod, node);
  if (plugin == "NodeAffinity") return OracleNodeAffinity(state, pod, node);
  if (plugin == "InterPodAffinity") return OracleInterPodAffinity(state, pod, node);
  if (plugin == "PodTopologySpread") return OraclePodTopologySpread(state, pod, node);
  return "";
}

std::string OracleAllFilters(const ClusterState& state, const k8s::Pod& pod,
                             const std::string& node) {
  for (const char* p : {"NodeUnschedulable", "NodeResourcesFit", "NodePorts", "TaintToleration",
                        "NodeAffinity", "InterPodAffinity", "PodTopologySpread"}) {
    std::string why = OracleFilter(p, state, pod, node);
    if (!why.empty()) return std::string(p) + ": " + why;
  }
  return "";
}

bool OracleSelectorMatches(const k8s::LabelSelector& sel, const Labels& labels) {
  for (const auto& [k, v] : sel.match_labels()) {
    const std::string* got = Label(labels, k);
    if (got == nullptr || *got != v) return false;
  }
  for (const auto& r : sel.match_expressions()) {
    if (!RequirementMatches(r.key(), r.operator_(), r.values(), labels)) return false;
  }
  return true;
}

}  // namespace schedcheck::properties
