// DynamicResources' computeScore against upstream's Test_computesScore (v1.37.2
// pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go), case by case
// (source:), and NormalizeScore.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reference/k8s/k8s_json.h"
#include "reference/plugins/dynamic_resources/dynamic_resources.h"

namespace schedcheck::reference {
namespace {

using nlohmann::json;

// A claim with one prioritized list per entry of `lists`: request name -> number of subrequests,
// named subreq-1, subreq-2, ...
k8s::ResourceClaim ClaimWithLists(const std::vector<std::pair<std::string, int>>& lists) {
  json requests = json::array();
  for (const auto& [name, n] : lists) {
    json subs = json::array();
    for (int i = 1; i <= n; ++i) {
      subs.push_back({{"name", "subreq-" + std::to_string(i)}, {"deviceClassName", "my-class"}});
    }
    requests.push_back({{"name", name}, {"firstAvailable", subs}});
  }
  auto claim = k8s::ResourceClaimFromJson(
      {{"metadata", {{"name", "claim"}}}, {"spec", {{"devices", {{"requests", requests}}}}}},
      "test");
  EXPECT_TRUE(claim.ok()) << claim.message();
  return claim.ok() ? *claim : k8s::ResourceClaim();
}

k8s::AllocationResult Allocated(const std::vector<std::string>& requests) {
  k8s::AllocationResult result;
  for (const std::string& request : requests) {
    result.mutable_devices()->add_results()->set_request(request);
  }
  return result;
}

int64_t Score(const std::vector<k8s::ResourceClaim>& claims,
              const std::vector<k8s::AllocationResult>& allocations) {
  Result<int64_t> score = PrioritizedListScore(claims, allocations);
  EXPECT_TRUE(score.ok()) << score.message();
  return score.ok() ? *score : -1;
}

TEST(DynamicResourcesScoreTest,
     MoreClaimsThanAllocations) {  // source: "more-claims-than-allocations"
  Result<int64_t> score =
      PrioritizedListScore({ClaimWithLists({{"req-1", 1}}), ClaimWithLists({{"req-2", 1}})}, {});
  ASSERT_FALSE(score.ok());
  EXPECT_EQ(score.message(),
            "number of allocations 0 is smaller than number of claims needing allocation");
}

// source: "mix-of-allocated-and-unallocated-claims": an allocated claim counts with its own
// allocation, and takes none of Filter's.
TEST(DynamicResourcesScoreTest, MixOfAllocatedAndUnallocatedClaims) {
  k8s::ResourceClaim allocated = ClaimWithLists({{"req-1", 2}});
  *allocated.mutable_status()->mutable_allocation() = Allocated({"req-1/subreq-2"});
  EXPECT_EQ(Score({allocated, ClaimWithLists({{"req-2", 1}})}, {Allocated({"req-2/subreq-1"})}),
            7 + 8);
  k8s::ResourceClaim plain;
  *plain.mutable_status()->mutable_allocation() = Allocated({"req-0"});
  EXPECT_EQ(Score({plain}, {}), 0);
}

TEST(DynamicResourcesScoreTest, SingleRequest) {
  // source: "single-request-only-subrequest-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 1}})}, {Allocated({"req-1/subreq-1"})}), 8);
  // source: "single-request-last-subrequest-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 8}})}, {Allocated({"req-1/subreq-8"})}), 1);
}

TEST(DynamicResourcesScoreTest, MultipleRequests) {
  // source: "multiple-requests-with-middle-subrequests-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 4}, {"req-2", 5}})},
                  {Allocated({"req-1/subreq-4", "req-2/subreq-5"})}),
            9);
  // source: "multiple-requests-with-top-subrequests-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 8}, {"req-2", 1}})},
                  {Allocated({"req-1/subreq-8", "req-2/subreq-1"})}),
            9);
}

TEST(DynamicResourcesScoreTest, MultipleClaims) {
  // source: "multiple-claims-with-last-subrequests-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 8}}), ClaimWithLists({{"req-2", 8}})},
                  {Allocated({"req-1/subreq-8"}), Allocated({"req-2/subreq-8"})}),
            2);
  // source: "multiple-claims-with-top-subrequests-allocated"
  EXPECT_EQ(Score({ClaimWithLists({{"req-1", 1}}), ClaimWithLists({{"req-2", 1}})},
                  {Allocated({"req-1/subreq-1"}), Allocated({"req-2/subreq-1"})}),
            16);
}

}  // namespace
}  // namespace schedcheck::reference
