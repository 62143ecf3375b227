#include "harness/replay/test_records.h"

#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::replay {

trace::Record AddedFromJson(int64_t t_ns, const std::string& kind, const std::string& json) {
  trace::Record r;
  r.set_time_ns(t_ns);
  r.mutable_api()->set_type(trace::ADDED);
  if (kind == "node") {
    auto node = k8s::NodeFromJson(nlohmann::json::parse(json), "node");
    EXPECT_TRUE(node.ok()) << node.message();
    *r.mutable_api()->mutable_node() = *node;
  } else {
    auto pod = k8s::PodFromJson(nlohmann::json::parse(json), "pod");
    EXPECT_TRUE(pod.ok()) << pod.message();
    *r.mutable_api()->mutable_pod() = *pod;
  }
  return r;
}

}  // namespace schedcheck::replay
