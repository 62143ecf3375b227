// Structure-aware: the input is a sequence of serialized Records separated by "RSEP" (so that
// mutations change records, not the framing). Two checks:
//  1. RecordParser, parsing every record into one reused Record as TraceReader does, agrees with
//     protobuf's parse of each record into a fresh message (verdict and every byte, unknown fields
//     included): nothing of a previous record may remain.
//  2. The records are framed into a trace file with valid zstd payloads and CRC32Cs (records per
//     frame from the first byte), so the mutated records get past the checksums; TraceReader must
//     return exactly the records protobuf accepts, up to the first it rejects (then kCorrupt).
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fuzz/fuzz_util.h"
#include "traces/fast_record_parser.h"
#include "traces/trace_format.h"
#include "traces/trace_reader.h"

namespace {

using namespace schedcheck;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "trace_records_fuzzer: %s\n", what);
    std::abort();
  }
}

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest = fuzz::Bytes(data, size);
  size_t per_frame = size ? 1 + data[0] % 4 : 1;
  std::vector<std::string_view> records;
  while (!rest.empty() && records.size() < 64) {
    auto [one, tail] = fuzz::SplitAt(rest, "RSEP");
    records.push_back(one);
    if (tail.data() == nullptr || (tail.empty() && one.size() == rest.size())) break;
    rest = tail;
  }

  // 1. Reused Record versus fresh protobuf parses.
  trace::RecordParser parser;
  trace::Record reused;
  std::vector<bool> valid;
  std::vector<std::string> canonical;
  for (std::string_view bytes : records) {
    trace::Record fresh;
    bool want = fresh.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
    bool got = parser.Parse(bytes.data(), bytes.size(), &reused);
    Check(want == got, "RecordParser's verdict differs from protobuf's");
    valid.push_back(want);
    canonical.push_back(want ? trace::SerializeDeterministic(fresh) : std::string());
    if (want)
      Check(trace::SerializeDeterministic(reused) == canonical.back(),
            "a reused Record differs from a fresh parse");
  }

  // 2. The same records framed into a trace file with valid checksums.
  trace::Header header;
  header.set_producer("fuzz");
  std::string file = trace::EncodeFileHeader(header);
  for (size_t first = 0; first < records.size(); first += per_frame) {
    std::string plain;
    size_t count = 0;
    for (size_t i = first; i < records.size() && i < first + per_frame; ++i, ++count) {
      PutVarint(&plain, records[i].size());
      plain.append(records[i]);
    }
    std::string compressed(ZSTD_compressBound(plain.size()), '\0');
    size_t n = ZSTD_compress(compressed.data(), compressed.size(), plain.data(), plain.size(), 1);
    Check(!ZSTD_isError(n), "zstd");
    compressed.resize(n);
    file += trace::EncodeFrameHeader(compressed, static_cast<uint32_t>(plain.size()),
                                     static_cast<uint32_t>(count));
    file += compressed;
  }
  std::string path = fuzz::WriteInput("framed.trace", file);
  auto reader = trace::TraceReader::Open(path);
  Check(reader.ok(), "the file header written by the fuzzer does not read back");
  trace::Record record;
  size_t i = 0;
  for (;; ++i) {
    trace::ReadStatus status = reader->Next(&record);
    if (status == trace::ReadStatus::kEnd) {
      Check(i == records.size(), "clean end before the last record");
      break;
    }
    if (status == trace::ReadStatus::kError) {
      Check(i < records.size() && !valid[i], "error on a valid record");
      Check(reader->damage() == trace::DamageKind::kCorrupt,
            "a bad record is not reported as corrupt");
      break;
    }
    Check(i < records.size() && valid[i], "a record protobuf rejects was returned");
    Check(trace::SerializeDeterministic(record) == canonical[i],
          "TraceReader's record differs from protobuf's parse");
  }
  return 0;
}
