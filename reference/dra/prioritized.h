// Prioritized lists (`firstAvailable`, the DRAPrioritizedList gate, GA and on at v1.37.2): the
// names and limits upstream uses for subrequests, and a subrequest as the exact request the
// allocator runs it as. The search over the subrequests is in allocator.cc (allocateOne); the
// score of the subrequests chosen is DynamicResources' Score (reference/plugins/dynamic_resources).
#ifndef SCHEDCHECK_REFERENCE_DRA_PRIORITIZED_H_
#define SCHEDCHECK_REFERENCE_DRA_PRIORITIZED_H_

#include <string>
#include <string_view>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::dra {

// resourceapi.FirstAvailableDeviceRequestMaxSize: the most subrequests one request may list.
inline constexpr int kFirstAvailableDeviceRequestMaxSize = 8;

// resourceclaim.CreateSubRequestRef: "<request>/<subrequest>", the name allocation results and
// configurations give a subrequest.
std::string SubRequestRef(std::string_view request, std::string_view sub_request);
// resourceclaim.IsSubRequestRef: the name has the form "<request>/<subrequest>".
bool IsSubRequestRef(std::string_view name);

// deviceSubRequestAccessor: the subrequest's class, selectors, allocation mode, count,
// tolerations and capacity as an exact request (a subrequest has no admin access).
k8s::ExactDeviceRequest AsExactRequest(const k8s::DeviceSubRequest& sub);

}  // namespace schedcheck::reference::dra

#endif  // SCHEDCHECK_REFERENCE_DRA_PRIORITIZED_H_
