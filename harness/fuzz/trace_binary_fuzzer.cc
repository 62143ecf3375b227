// Binary trace files as `replay`, `trace info|cat|convert` and `diff` read them: TraceReader (file
// header, frames, CRCs, zstd, record lengths, RecordParser) streaming every record, then LoadTrace.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "traces/trace_file.h"
#include "traces/trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("input.trace", fuzz::Bytes(data, size));
  auto reader = trace::TraceReader::Open(path);
  if (reader.ok()) {
    trace::Record record;
    while (reader->Next(&record) == trace::ReadStatus::kRecord) {
    }
  }
  (void)trace::LoadTrace(path);
  return 0;
}
