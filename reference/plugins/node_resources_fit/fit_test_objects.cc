#include "reference/plugins/node_resources_fit/fit_test_objects.h"

#include "reference/testing/objects.h"

namespace schedcheck::reference::fit_testing {

PodPtr Pod(const std::string& name, const std::vector<std::string>& requests,
           const std::vector<std::string>& init, const std::string& overhead) {
  std::string y = "metadata: {name: " + name + "}\nspec:\n  containers:\n";
  if (requests.empty()) y += "  []\n";  // like upstream's st.MakePod(): no containers at all
  for (const std::string& r : requests) y += "  - {name: c, resources: {requests: " + r + "}}\n";
  if (!init.empty()) y += "  initContainers:\n";
  for (const std::string& r : init) y += "  - {name: i, resources: {requests: " + r + "}}\n";
  if (!overhead.empty()) y += "  overhead: " + overhead + "\n";
  return testing::ParsePod(y, CompatLevel::kV1_27);
}

NodePtr EnoughNode(const std::string& pods) {
  return testing::ParseNode(
      "metadata: {name: n}\nstatus: {allocatable: {cpu: 10m, memory: '20', pods: '" + pods +
      "', example.com/aaa: '5', ephemeral-storage: '20', hugepages-2Mi: '5'}}");
}

}  // namespace schedcheck::reference::fit_testing
