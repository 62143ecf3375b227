#include "traces/sample_trace.h"

#include <string>

namespace schedcheck::trace {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

Record AttemptRecord(int64_t time_ns, const std::string& pod, AttemptResult result,
                     const std::string& node, std::initializer_list<const char*> ties) {
  Record r;
  r.set_time_ns(time_ns);
  Attempt* a = r.mutable_attempt();
  a->set_pod(pod);
  a->set_attempt(1);
  a->set_result(result);
  a->set_node(node);
  for (const char* t : ties) a->add_ties(t);
  return r;
}

}  // namespace

k8s::Node MakeNode(const std::string& name, const std::string& cpu, const std::string& memory) {
  k8s::Node node;
  node.set_api_version("v1");
  node.set_kind("Node");
  node.mutable_metadata()->set_name(name);
  node.mutable_metadata()->set_uid("uid-node-" + name);
  (*node.mutable_metadata()->mutable_labels())["kubernetes.io/hostname"] = name;
  for (auto* list :
       {node.mutable_status()->mutable_capacity(), node.mutable_status()->mutable_allocatable()}) {
    (*list)["cpu"] = cpu;
    (*list)["memory"] = memory;
    (*list)["pods"] = "110";
  }
  k8s::NodeCondition* ready = node.mutable_status()->add_conditions();
  ready->set_type("Ready");
  ready->set_status("True");
  return node;
}

k8s::Pod MakePod(const std::string& ns, const std::string& name, const std::string& cpu,
                 const std::string& memory) {
  k8s::Pod pod;
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  pod.mutable_metadata()->set_namespace_(ns);
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_uid("uid-pod-" + ns + "-" + name);
  (*pod.mutable_metadata()->mutable_labels())["app"] = name;
  k8s::Container* c = pod.mutable_spec()->add_containers();
  c->set_name("main");
  c->set_image("registry.k8s.io/pause:3.9");
  (*c->mutable_resources()->mutable_requests())["cpu"] = cpu;
  (*c->mutable_resources()->mutable_requests())["memory"] = memory;
  pod.mutable_spec()->set_scheduler_name("default-scheduler");
  pod.mutable_status()->set_phase("Pending");
  return pod;
}

Record ApiRecord(int64_t time_ns, EventType type, const k8s::Pod& pod) {
  Record r;
  r.set_time_ns(time_ns);
  r.mutable_api()->set_type(type);
  *r.mutable_api()->mutable_pod() = pod;
  return r;
}

Record ApiRecord(int64_t time_ns, EventType type, const k8s::Node& node) {
  Record r;
  r.set_time_ns(time_ns);
  r.mutable_api()->set_type(type);
  *r.mutable_api()->mutable_node() = node;
  return r;
}

Record QueueRecord(int64_t time_ns, const std::string& pod, const std::string& from,
                   const std::string& to, const std::string& cause) {
  Record r;
  r.set_time_ns(time_ns);
  QueueTransition* q = r.mutable_queue();
  q->set_pod(pod);
  q->set_from(from);
  q->set_to(to);
  q->set_cause(cause);
  return r;
}

Record BindingRecord(int64_t time_ns, const std::string& pod, const std::string& node) {
  Record r;
  r.set_time_ns(time_ns);
  r.mutable_binding()->set_pod(pod);
  r.mutable_binding()->set_node(node);
  return r;
}

Trace MakeSampleTrace() {
  Trace t;
  t.header.set_format_version(kFormatVersion);
  t.header.set_producer("schedcheck trace sample");
  t.header.set_compat(std::string(kCompatLevel));
  t.header.set_seed(1);
  (*t.header.mutable_labels())["source"] = "sample";

  k8s::Node n3 = MakeNode("node-3", "8", "32Gi");
  k8s::Taint* taint = n3.mutable_spec()->add_taints();
  taint->set_key("dedicated");
  taint->set_value("gpu");
  taint->set_effect("NoSchedule");
  auto& r = t.records;
  r.push_back(ApiRecord(0, ADDED, MakeNode("node-1", "4", "8Gi")));
  r.push_back(ApiRecord(0, ADDED, MakeNode("node-2", "4", "8Gi")));
  r.push_back(ApiRecord(0, ADDED, n3));

  const k8s::Pod web = MakePod("default", "web-0", "500m", "1Gi");
  const k8s::Pod batch = MakePod("default", "batch-0", "2", "4Gi");
  const k8s::Pod huge = MakePod("default", "huge-0", "16", "64Gi");
  int64_t now = 1 * kSecond;
  for (const k8s::Pod* pod : {&web, &batch, &huge}) {
    const std::string key = "default/" + pod->metadata().name();
    r.push_back(ApiRecord(now, ADDED, *pod));
    r.push_back(QueueRecord(now, key, "none", "active", "PodAdd"));
    now += kSecond / 10;
  }
  r.push_back(QueueRecord(2 * kSecond, "default/web-0", "active", "inflight", "Pop"));
  r.push_back(
      AttemptRecord(2 * kSecond, "default/web-0", SCHEDULED, "node-1", {"node-1", "node-2"}));
  r.push_back(BindingRecord(2 * kSecond + 1000, "default/web-0", "node-1"));
  k8s::Pod bound = web;
  bound.mutable_metadata()->set_resource_version("2");
  bound.mutable_spec()->set_node_name("node-1");
  bound.mutable_status()->set_phase("Running");
  r.push_back(ApiRecord(2 * kSecond + 5000, MODIFIED, bound));

  r.push_back(QueueRecord(3 * kSecond, "default/huge-0", "active", "inflight", "Pop"));
  Record failed = AttemptRecord(3 * kSecond, "default/huge-0", UNSCHEDULABLE, "", {});
  failed.mutable_attempt()->add_unschedulable_plugins("NodeResourcesFit");
  failed.mutable_attempt()->add_unschedulable_plugins("TaintToleration");
  failed.mutable_attempt()->set_message(
      "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient "
      "cpu, 2 Insufficient memory.");
  r.push_back(failed);
  r.push_back(QueueRecord(3 * kSecond, "default/huge-0", "inflight", "unschedulable",
                          "ScheduleAttemptFailure"));
  r.push_back(ApiRecord(4 * kSecond, DELETED, huge));
  r.push_back(QueueRecord(4 * kSecond, "default/huge-0", "unschedulable", "gone", "PodDelete"));
  return t;
}

}  // namespace schedcheck::trace
