// Test objects shared by the NodeResourcesFit tests of both engines (the plain
// node_resources_fit_test, the fast fast_node_resources_fit_test and free_room_test): pods from
// container requests and upstream's makeResources node. Abort on malformed input, as
// reference/testing/objects.h does.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_FIT_TEST_OBJECTS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_FIT_TEST_OBJECTS_H_

#include <string>
#include <vector>

#include "reference/api/objects.h"

namespace schedcheck::reference::fit_testing {

// A pod whose containers request `requests` (inline YAML maps such as "{cpu: 1m, memory: '1'}")
// and whose init containers request `init`.
PodPtr Pod(const std::string& name, const std::vector<std::string>& requests,
           const std::vector<std::string>& init = {}, const std::string& overhead = "");

// Upstream's makeResources(10, 20, 32, 5, 20, 5) node, or one with another pod count.
NodePtr EnoughNode(const std::string& pods = "32");

}  // namespace schedcheck::reference::fit_testing

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_FIT_TEST_OBJECTS_H_
