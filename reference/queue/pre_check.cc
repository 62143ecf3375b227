#include "reference/queue/pre_check.h"

#include "reference/api/selectors.h"
#include "reference/base/features.h"
#include "reference/plugins/node_ports/node_ports.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference {

bool PreCheckForNode(const Pod& pod, const NodeInfo& node) {
  if (node.node() == nullptr) return false;
  const k8s::Node& n = node.node()->obj;
  // AdmissionCheck without includeAllFailures: the first failure decides.
  // The v1.27 queue's event handlers (their only caller) fit as v1.27 does.
  if (!Fits(pod, node, FeaturesFor(CompatLevel::kV1_27)).empty()) return false;
  if (!PodMatchesRequiredNodeAffinity(pod.obj, n)) return false;
  if (!pod.node_name().empty() && pod.node_name() != n.metadata().name()) return false;
  if (!FitsPorts(pod, node)) return false;
  const k8s::Taint* untolerated =
      FindUntoleratedTaint(n.spec().taints(), pod.obj.spec().tolerations(),
                           [](const k8s::Taint& t) { return t.effect() == "NoSchedule"; });
  return untolerated == nullptr;
}

}  // namespace schedcheck::reference
