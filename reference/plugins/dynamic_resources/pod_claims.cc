#include "reference/plugins/dynamic_resources/pod_claims.h"

namespace schedcheck::reference {

std::string ClaimUid(const k8s::ResourceClaim& claim) {
  if (!claim.metadata().uid().empty()) return claim.metadata().uid();
  return "resourceclaim:" + claim.metadata().namespace_() + "/" + claim.metadata().name();
}

std::string ClaimRef(const k8s::ResourceClaim& claim) {
  return claim.metadata().namespace_() + "/" + claim.metadata().name();
}

bool IsReservedForPod(const Pod& pod, const k8s::ResourceClaim& claim) {
  for (const k8s::ResourceClaimConsumerReference& ref : claim.status().reserved_for()) {
    if (ref.uid() == pod.uid()) return true;
  }
  return false;
}

namespace {

// metav1.IsControlledBy: the controller owner reference has the pod's UID.
bool IsControlledBy(const k8s::ResourceClaim& claim, const Pod& pod) {
  for (const k8s::OwnerReference& owner : claim.metadata().owner_references()) {
    if (owner.controller()) return owner.uid() == pod.uid();
  }
  return false;
}

}  // namespace

Result<std::vector<const k8s::ResourceClaim*>> PodResourceClaims(const Pod& pod,
                                                                 const ClusterObjects& objects) {
  const k8s::Pod& obj = pod.obj;
  const std::string pod_ref = obj.metadata().namespace_() + "/" + obj.metadata().name();
  std::vector<const k8s::ResourceClaim*> claims;
  for (const k8s::PodResourceClaim& entry : obj.spec().resource_claims()) {
    // resourceclaim.Name
    std::string name;
    bool must_check_owner = false;
    if (!entry.resource_claim_name().empty()) {
      name = entry.resource_claim_name();
    } else if (!entry.resource_claim_template_name().empty()) {
      const k8s::PodResourceClaimStatus* status = nullptr;
      for (const k8s::PodResourceClaimStatus& s : obj.status().resource_claim_statuses()) {
        if (s.name() == entry.name()) {
          status = &s;
          break;
        }
      }
      if (status == nullptr) {
        return Error{"pod \"" + pod_ref + "\": ResourceClaim not created yet"};
      }
      if (!status->has_resource_claim_name()) continue;  // no claim needed
      name = status->resource_claim_name();
      must_check_owner = true;
    } else {
      return Error{"pod \"" + pod_ref + "\", spec.resourceClaim \"" + entry.name() +
                   "\": none of the supported fields are set"};
    }
    const k8s::ResourceClaim* claim =
        ClusterObjects::Find(objects.resource_claims, obj.metadata().namespace_() + "/" + name);
    if (claim == nullptr) {
      // The assume cache's NotFoundError.
      return Error{"could not find ResourceClaim \"" + obj.metadata().namespace_() + "/" + name +
                   "\""};
    }
    if (!claim->metadata().deletion_timestamp().empty()) {
      return Error{"resourceclaim \"" + name + "\" is being deleted"};
    }
    if (must_check_owner && !IsControlledBy(*claim, pod)) {
      return Error{"ResourceClaim " + ClaimRef(*claim) + " was not created for Pod " + pod_ref +
                   " (Pod is not owner)"};
    }
    claims.push_back(claim);
  }
  return claims;
}

}  // namespace schedcheck::reference
