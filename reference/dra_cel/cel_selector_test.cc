// CelSelector against upstream's own expectations. Each case names (source:) the upstream test it
// follows: k8s.io/dynamic-resource-allocation v0.37.2 cel/compile_test.go (TestCEL's table, by
// case name) and cel/errors_test.go, or kubernetes v1.37.2's noderesources
// resource_allocation_test.go.
#include "reference/dra_cel/cel_selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedcheck::reference {
namespace {

constexpr char kDriver[] = "dra.example.com";

struct MatchCase {
  std::string name;
  std::string source;
  std::string expression;
  CelDevice device;
  bool want;
};

CelDevice Device(std::map<std::string, DeviceAttributeValue> attributes = {},
                 std::map<std::string, std::string> capacity = {}, std::string driver = kDriver,
                 std::optional<bool> allow_multiple_allocations = std::nullopt) {
  CelDevice device;
  device.driver = std::move(driver);
  device.allow_multiple_allocations = allow_multiple_allocations;
  device.attributes = std::move(attributes);
  device.capacity = std::move(capacity);
  return device;
}

TEST(CelSelectorTest, MatchesAsUpstream) {
  const std::vector<MatchCase> cases = {
      {"driver", "compile_test.go real-driver-name", R"(device.driver == "dra.example.com")",
       Device(), true},
      {"other driver", "compile_test.go real-driver-name, another driver",
       R"(device.driver == "gpu.example.com")", Device(), false},
      {"empty driver", "compile_test.go empty-driver-name", R"(device.driver == "")",
       Device({}, {}, ""), true},
      {"int", "compile_test.go int", R"(device.attributes["dra.example.com"].name > 0)",
       Device({{"name", int64_t{1}}}), true},
      {"int false", "compile_test.go int, a value below",
       R"(device.attributes["dra.example.com"].name > 0)", Device({{"name", int64_t{-3}}}), false},
      {"string", "compile_test.go string", R"(device.attributes["dra.example.com"].name == "fish")",
       Device({{"name", std::string("fish")}}), true},
      {"bool", "compile_test.go bool", R"(device.attributes["dra.example.com"].name)",
       Device({{"name", true}}), true},
      {"bool false", "compile_test.go bool, false", R"(device.attributes["dra.example.com"].name)",
       Device({{"name", false}}), false},
      {"version", "compile_test.go version",
       R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))",
       Device({{"name", DeviceVersion{"1.0.0"}}}), true},
      {"version below", "compile_test.go version, a lower version",
       R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("2.0.0")))",
       Device({{"name", DeviceVersion{"1.0.0"}}}), false},
      {"qualified name", "compile_test.go qualified-attribute-name",
       R"(device.attributes["other.example.com"].name)", Device({{"other.example.com/name", true}}),
       true},
      {"quantity", "compile_test.go quantity",
       R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device({}, {{"name", "1Mi"}}), true},
      {"compareTo",
       "resource_allocation_test.go DRA-backed-resource-with-per-device-node-selection",
       R"(device.driver == "test-driver" && device.capacity["test-driver"].memory.compareTo(quantity("8Gi")) >= 0 && device.attributes["test-driver"].model.startsWith("SOME-"))",
       Device({{"model", std::string("SOME-XYZ")}}, {{"memory", "16Gi"}}, "test-driver"), true},
      {"compareTo below", "resource_allocation_test.go, a device below 8Gi",
       R"(device.capacity["test-driver"].memory.compareTo(quantity("8Gi")) >= 0)",
       Device({}, {{"memory", "7Gi"}}, "test-driver"), false},
      {"in, positive", "compile_test.go domain-check-positive",
       R"("dra.example.com" in device.attributes)", Device({{"dra.example.com/something", true}}),
       true},
      {"in, negative", "compile_test.go domain-check-negative",
       R"("no-such-domain" in device.attributes)", Device(), false},
      {"&&", "compile_test.go check-positive",
       R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device({}, {{"name", "1Mi"}}), true},
      {"! and ||", "compile_test.go check-negative",
       R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device(), true},
      {"! and ||, too small", "compile_test.go check-negative, capacity below 1Ki",
       R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       Device({}, {{"name", "1"}}), false},
      {"allowMultipleAllocations unset", "compile_test.go allow_multiple_allocations_default",
       "device.allowMultipleAllocations == false", Device(), true},
      {"allowMultipleAllocations", "compile_test.go allow_multiple_allocations",
       "device.allowMultipleAllocations == true", Device({}, {}, kDriver, true), true},
      {"regexp", "compile_test.go regexp_attribute",
       R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))",
       Device({{"services", std::string("asymetric")}}), true},
  };
  for (const MatchCase& c : cases) {
    SCOPED_TRACE(c.name + " (source: " + c.source + ")");
    Result<CelSelector> selector = CelSelector::Compile(c.expression);
    ASSERT_TRUE(selector.ok()) << selector.message();
    Result<bool> got = selector->Matches(c.device);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_EQ(*got, c.want);
    // A prepared device answers the same.
    Result<PreparedCelDevice> prepared = PreparedCelDevice::Prepare(c.device);
    ASSERT_TRUE(prepared.ok()) << prepared.message();
    got = selector->Matches(*prepared);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_EQ(*got, c.want);
  }
}

// source: compile_test.go runtime-error-lookup-identifier (the error), and errors_test.go
// "no such key error gets enhanced with usage hint" (the hint the allocator appends).
TEST(CelSelectorTest, MissingAttributeIsUpstreamsRuntimeError) {
  Result<CelSelector> selector = CelSelector::Compile(
      R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))");
  ASSERT_TRUE(selector.ok()) << selector.message();
  Result<bool> got = selector->Matches(Device());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.message(),
            "no such key: noSuchAttr. consider using CEL optional chaining (.? followed by "
            "orValue()) or guarding "
            "the check with has() for optional fields");
}

// source: compile_test.go syntax-error and type-error; the prefix is CompileCELExpression's.
TEST(CelSelectorTest, CompileErrorsAreUpstreams) {
  Result<CelSelector> syntax = CelSelector::Compile("?!");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.message().rfind("compilation failed: ", 0), 0u) << syntax.message();
  EXPECT_NE(syntax.message().find("Syntax error"), std::string::npos) << syntax.message();

  Result<CelSelector> type = CelSelector::Compile("1");
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.message().find("must evaluate to bool or the unknown type, not int"),
            std::string::npos)
      << type.message();
}

// The allocator compiles in the stored-expressions environment, where the gates do not remove
// fields: allow_multiple_allocations_disabled (compile_test.go) fails only for new expressions, so
// here the field compiles with DRAConsumableCapacity off and reads false.
// source: compile_test.go includes-function-compilation-and-eval-success: DRAListTypeAttributes
// adds includes().
TEST(CelSelectorTest, FeatureGatesReachTheCompiler) {
  Result<CelSelector> off = CelSelector::Compile("device.allowMultipleAllocations == false",
                                                 CelFeatures{.consumable_capacity = false});
  ASSERT_TRUE(off.ok()) << off.message();
  Result<bool> got = off->Matches(Device());
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got);

  const std::string includes = R"(device.attributes["dra.example.com"].attr.includes("fish"))";
  Result<CelSelector> with_lists =
      CelSelector::Compile(includes, CelFeatures{.list_type_attributes = true});
  ASSERT_TRUE(with_lists.ok()) << with_lists.message();
  got = with_lists->Matches(Device({{"attr", std::string("fish")}}));
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got);
  got = with_lists->Matches(Device({{"attr", std::string("bird")}}));
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(*got);
}

// source: compile_test.go expensive: upstream's runtime cost limit stops the evaluation.
TEST(CelSelectorTest, CostLimit) {
  Result<CelSelector> selector = CelSelector::Compile(
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, "
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, "
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, "
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))");
  ASSERT_TRUE(selector.ok()) << selector.message();
  Result<bool> got = selector->Matches(Device());
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.message().find("actual cost limit exceeded"), std::string::npos) << got.message();
}

// Values that do not parse: a version is upstream's getAttributeValue error; a quantity is named
// by the device form's decoder with resource.ParseQuantity's text.
TEST(CelSelectorTest, BadValuesAreErrors) {
  Result<CelSelector> selector = CelSelector::Compile("true");
  ASSERT_TRUE(selector.ok()) << selector.message();

  Result<bool> version = selector->Matches(Device({{"v", DeviceVersion{"one"}}}));
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.message().rfind("attribute v: parse semantic version: ", 0), 0u)
      << version.message();

  Result<PreparedCelDevice> prepared =
      PreparedCelDevice::Prepare(Device({{"v", DeviceVersion{"one"}}}));
  ASSERT_TRUE(prepared.ok()) << prepared.message();
  version = selector->Matches(*prepared);
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.message().rfind("attribute v: parse semantic version: ", 0), 0u)
      << version.message();

  Result<PreparedCelDevice> bad = PreparedCelDevice::Prepare(Device({}, {{"memory", "ten"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message().rfind("device: capacity memory: quantity \"ten\": ", 0), 0u)
      << bad.message();

  Result<bool> quantity = selector->Matches(Device({}, {{"memory", "ten"}}));
  ASSERT_FALSE(quantity.ok());
  EXPECT_EQ(quantity.message().rfind("device: capacity memory: quantity \"ten\": ", 0), 0u)
      << quantity.message();
}

// The archive links the modules kubernetes v1.37.2 requires (its go.mod), not whatever resolved.
TEST(CelSelectorTest, LinksUpstreamsPinnedModules) {
  EXPECT_EQ(LinkedGoModuleVersion("k8s.io/dynamic-resource-allocation"), "v0.37.2");
  EXPECT_EQ(LinkedGoModuleVersion("k8s.io/apiserver"), "v0.37.2");
  EXPECT_EQ(LinkedGoModuleVersion("github.com/google/cel-go"), "v0.29.2");
  EXPECT_EQ(LinkedGoModuleVersion("example.com/not-linked"), "");
}

// A moved-from selector owns nothing; the moved-to one still evaluates.
TEST(CelSelectorTest, MoveKeepsTheProgram) {
  Result<CelSelector> selector = CelSelector::Compile(R"(device.driver == "dra.example.com")");
  ASSERT_TRUE(selector.ok()) << selector.message();
  CelSelector moved = std::move(*selector);
  Result<bool> got = moved.Matches(Device());
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got);
  EXPECT_EQ(moved.expression(), R"(device.driver == "dra.example.com")");
}

}  // namespace
}  // namespace schedcheck::reference
