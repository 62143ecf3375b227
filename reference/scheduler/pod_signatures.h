// Pod signatures of v1.37's OpportunisticBatching (on by default). The batch
// (opportunistic_batch.h) reuses the previous pod's sorted node scores for a pod whose signature
// equals it. A profile signs pods only when every PreFilter, Filter, PreScore and Score plugin
// implements SignPlugin (frameworkImpl.computeBatchablePlugins); a pod is signed when every such
// plugin can sign it (frameworkImpl.SignPod), and PodTopologySpread refuses every pod while it has
// default constraints, as the default profile's System defaulting gives it.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_

#include <string>
#include <vector>

#include "reference/api/pod_requests.h"
#include "reference/runtime/framework.h"
#include "reference/runtime/profile.h"

namespace schedcheck::reference {

// frameworkImpl.SignPod for one profile. Upstream marshals a map from signer key to each plugin's
// fragment as JSON; two signatures are compared for equality only, so ours is an injective text
// of the same fragments (length-prefixed strings, lists in upstream's sorted order), not JSON.
class PodSigner {
 public:
  // `fw` was created from `profile` (whose pluginConfig holds InterPodAffinity's arguments);
  // `gates` decide how NodeResourcesFit and BalancedAllocation count requests.
  static PodSigner ForProfile(const Framework& fw, const Profile& profile,
                              const PodResourceGates& gates);

  // Null when the profile does not sign pods or one of its plugins cannot sign `pod`.
  PodSignature Sign(const Pod& pod) const;

  // Whether some pod can be signed: every plugin signs, and PodTopologySpread (if enabled) has no
  // default constraints.
  bool enabled() const { return enabled_; }

 private:
  PodSigner() = default;

  bool enabled_ = false;
  std::string scheduler_name_;
  std::vector<std::string> plugins_;  // the batchable plugins, each once, in upstream's order
  bool ignore_preferred_terms_of_existing_pods_ = false;  // InterPodAffinity's argument
  PodResourceGates gates_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_POD_SIGNATURES_H_
