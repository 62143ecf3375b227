#include "reference/plugins/node_ports/node_ports.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

// A pod with one container whose ports are given as "PROTO/IP/PORT" (upstream newPod helper).
PodPtr PortsPod(const std::string& name, const std::vector<std::string>& ports) {
  std::string y = "metadata: {name: " + name + "}\nspec:\n  containers:\n  - name: c\n    ports:\n";
  if (ports.empty()) y += "    []\n";
  for (const std::string& p : ports) {
    size_t a = p.find('/'), b = p.rfind('/');
    y += "    - {containerPort: 80, protocol: " + p.substr(0, a) + ", hostIP: '" +
         p.substr(a + 1, b - a - 1) + "', hostPort: " + p.substr(b + 1) + "}\n";
  }
  return testing::ParsePod(y, CompatLevel::kV1_27);
}

struct Case {
  std::string name;
  std::vector<std::string> want;
  std::vector<std::string> existing;
  bool fits;
};

// Transcribed from upstream nodeports/node_ports_test.go TestNodePorts (v1.27).
TEST(NodePortsTest, Filter) {
  std::vector<Case> cases = {
      {"nothing running", {}, {}, true},
      {"other port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/9090"}, true},
      {"same udp port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}, false},
      {"same tcp port", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, false},
      {"different host ip", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.2/8080"}, true},
      {"different protocol", {"UDP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, true},
      {"second udp port conflict",
       {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"},
       {"UDP/127.0.0.1/8080"},
       false},
      {"first tcp port conflict",
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"},
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"},
       false},
      {"first tcp port conflict due to 0.0.0.0 hostIP",
       {"TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"second tcp port conflict to 0.0.0.0 hostIP",
       {"TCP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001"},
       false},
      {"second different protocol", {"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}, true},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP",
       {"UDP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"},
       false},
      {"empty hostIP means 0.0.0.0", {"TCP//8001"}, {"TCP/127.0.0.1/8001"}, false},
      {"hostPort 0 never conflicts", {"TCP/0.0.0.0/0"}, {"TCP/0.0.0.0/0"}, true},
  };
  NodePtr node = testing::ParseNode("metadata: {name: n}");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto plugin = NodePorts::New(nullptr, Handle{FeaturesFor(CompatLevel::kV1_27)});
    ASSERT_TRUE(plugin.ok());
    auto* np = dynamic_cast<NodePorts*>(plugin->get());
    PodPtr pod = PortsPod("p", c.want);
    auto info = testing::MakeNodeInfo(node, {PortsPod("e", c.existing)});
    CycleState state;
    PreFilterResult result;
    ASSERT_TRUE(np->PreFilter(state, *pod, &result).IsSuccess());
    Status got = np->Filter(state, *pod, *info);
    if (c.fits) {
      EXPECT_TRUE(got.IsSuccess()) << got.DebugString();
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulable);
      EXPECT_EQ(got.reasons(), std::vector<std::string>{
                                   "node(s) didn't have free ports for the requested pod ports"});
    }
    EXPECT_EQ(FitsPorts(*pod, *info), c.fits);
  }
}

TEST(NodePortsTest, FilterWithoutPreFilterIsError) {
  NodePorts plugin(FeaturesFor(CompatLevel::kV1_27));
  CycleState state;
  auto info = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  EXPECT_EQ(plugin.Filter(state, *PortsPod("p", {}), *info).code(), Code::kError);
}

TEST(NodePortsTest, EventsToRegister) {
  auto events = NodePorts(FeaturesFor(CompatLevel::kV1_27)).EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].resource, "Pod");
  EXPECT_EQ(events[0].action, action::kDelete);
  EXPECT_EQ(events[1].resource, "Node");
  EXPECT_EQ(events[1].action, action::kAdd | action::kUpdate);
}

}  // namespace
}  // namespace schedcheck::reference
