// Conformance case files as `schedcheck check` reads them (LoadCases): the first byte of the input
// chooses the form (JSON, JSON Lines or YAML, by the file name's extension), the rest is the file.
#include <cstddef>
#include <cstdint>

#include "harness/check/case.h"
#include "harness/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  if (size < 1) return 0;
  static const char* const kNames[] = {"case.json", "case.jsonl", "case.yaml"};
  std::string path = fuzz::WriteInput(kNames[data[0] % 3], fuzz::Bytes(data + 1, size - 1));
  auto cases = check::LoadCases({path});
  if (cases.ok()) {
    for (const check::Case& c : *cases) (void)check::CaseProfile(c);
  }
  return 0;
}
