// Measures CelSelector: the cost of compiling a selector (each one distinct, so upstream's cache
// never answers) and of one evaluation against one device, in nanoseconds of the process's CPU
// time (every thread's, the Go runtime's collector included), which a loaded machine disturbs far
// less than elapsed time. A benchmark, so it reads a clock; nothing it prints feeds a decision.
//
//   bazel run -c opt //reference/dra_cel:cel_selector_bench [-- ITERATIONS]
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "reference/dra_cel/cel_selector.h"

namespace schedcheck::reference {
namespace {

// The process's CPU time, all threads.
struct Clock {
  using time_point = double;  // nanoseconds
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
  }
};

double NsPer(Clock::time_point start, Clock::time_point end, long n) {
  return (end - start) / static_cast<double>(n);
}

// A GPU-like device: a few attributes and capacities, as a ResourceSlice publishes them.
CelDevice Gpu() {
  return CelDevice{
      .driver = "gpu.example.com",
      .allow_multiple_allocations = std::nullopt,
      .attributes = {{"model", std::string("SOME-XYZ")},
                     {"index", int64_t{3}},
                     {"mig", false},
                     {"driverVersion", DeviceVersion{"550.54.15"}},
                     {"uuid", std::string("GPU-0a1b2c3d-4e5f-6789-abcd-ef0123456789")}},
      .capacity = {{"memory", "80Gi"}, {"cores", "132"}},
  };
}

int Run(long iterations) {
  const std::vector<std::string> selectors = {
      "true",
      R"(device.driver == "gpu.example.com")",
      R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0)",
      R"(device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model.startsWith("SOME-") && )"
      R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0 && )"
      R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0")) && )"
      R"(!device.attributes["gpu.example.com"].mig)",
  };
  const CelDevice gpu = Gpu();

  // Compile: distinct expressions (a different constant each), so every one is compiled.
  const long compiles = iterations / 100 > 0 ? iterations / 100 : 1;
  Clock::time_point start = Clock::now();
  for (long i = 0; i < compiles; ++i) {
    std::string expr =
        R"(device.attributes["gpu.example.com"].index > )" + std::to_string(i) +
        R"( && device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0)";
    Result<CelSelector> s = CelSelector::Compile(expr);
    if (!s.ok()) {
      std::fprintf(stderr, "compile: %s\n", s.message().c_str());
      return 1;
    }
  }
  std::printf("compile (distinct, two comparisons)      %10.0f ns  (%ld compiles)\n",
              NsPer(start, Clock::now(), compiles), compiles);

  for (const std::string& expr : selectors) {
    Result<CelSelector> s = CelSelector::Compile(expr);
    if (!s.ok()) {
      std::fprintf(stderr, "compile %s: %s\n", expr.c_str(), s.message().c_str());
      return 1;
    }
    long matched = 0;
    start = Clock::now();
    for (long i = 0; i < iterations; ++i) {
      Result<bool> got = s->Matches(gpu);
      if (!got.ok()) {
        std::fprintf(stderr, "match %s: %s\n", expr.c_str(), got.message().c_str());
        return 1;
      }
      matched += *got ? 1 : 0;
    }
    std::printf("match %-36.36s %10.0f ns  (%ld evaluations, %ld matched)\n", expr.c_str(),
                NsPer(start, Clock::now(), iterations), iterations, matched);

    // The same against a device prepared once.
    Result<PreparedCelDevice> prepared = PreparedCelDevice::Prepare(gpu);
    if (!prepared.ok()) {
      std::fprintf(stderr, "prepare: %s\n", prepared.message().c_str());
      return 1;
    }
    matched = 0;
    start = Clock::now();
    for (long i = 0; i < iterations; ++i) {
      Result<bool> got = s->Matches(*prepared);
      if (!got.ok()) {
        std::fprintf(stderr, "match prepared %s: %s\n", expr.c_str(), got.message().c_str());
        return 1;
      }
      matched += *got ? 1 : 0;
    }
    std::printf(
        "  prepared device                            %10.0f ns  (%ld evaluations, %ld matched)\n",
        NsPer(start, Clock::now(), iterations), iterations, matched);
  }
  return 0;
}

}  // namespace
}  // namespace schedcheck::reference

int main(int argc, char** argv) {
  long iterations = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 100000;
  if (iterations <= 0) {
    std::fprintf(stderr, "usage: cel_selector_bench [ITERATIONS > 0]\n");
    return 2;
  }
  return schedcheck::reference::Run(iterations);
}
