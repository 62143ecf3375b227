#include "traces/trace_reader.h"

#include <sys/resource.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "traces/crc32c.h"
#include "traces/sample_trace.h"
#include "traces/trace_format.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

using testing::ReadFileBytes;
using testing::SameRecords;
using testing::TempPath;
using testing::WriteFileBytes;

struct FrameInfo {
  size_t offset;       // first byte of the frame header
  size_t end;          // one past the payload
  size_t first_event;  // index of the frame's first record
};

// Walks the frames of a well-formed file.
std::vector<FrameInfo> Frames(const std::string& bytes) {
  size_t pos = kFileHeaderPrefixSize + GetU32(bytes.data() + 12) + 4;
  std::vector<FrameInfo> frames;
  size_t event = 0;
  while (pos < bytes.size()) {
    const FrameHeader h = DecodeFrameHeader(bytes.data() + pos);
    frames.push_back({pos, pos + kFrameHeaderSize + h.compressed_size, event});
    event += h.record_count;
    pos = frames.back().end;
  }
  return frames;
}

struct Drained {
  std::vector<Record> records;
  ReadStatus last;
  DamageKind damage;
  std::string error;
};

// The ways of reading records; every damage test reads each file all these ways. kNext reuses
// one Record (each record is assigned over the previous one), kNextFresh passes a new one.
enum class Way { kNext, kNextFresh, kBorrowed };
constexpr Way kAllWays[] = {Way::kNext, Way::kNextFresh, Way::kBorrowed};

Drained Drain(TraceReader& reader, Way way = Way::kNext) {
  Drained d;
  if (way == Way::kNext) {
    Record r;
    while ((d.last = reader.Next(&r)) == ReadStatus::kRecord) d.records.push_back(r);
  } else if (way == Way::kNextFresh) {
    while (true) {
      Record r;
      if ((d.last = reader.Next(&r)) != ReadStatus::kRecord) break;
      d.records.push_back(std::move(r));
    }
  } else {
    const Record* r = nullptr;
    while ((d.last = reader.NextBorrowed(&r)) == ReadStatus::kRecord) {
      EXPECT_NE(r, nullptr);
      d.records.push_back(*r);
    }
    EXPECT_EQ(r, nullptr);
  }
  d.damage = reader.damage();
  d.error = reader.error();
  return d;
}

// Reads `path` every way; expects the same records, status and message; returns them.
Drained DrainEveryWay(const std::string& path) {
  Drained first;
  for (Way way : kAllWays) {
    auto reader = TraceReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.message();
    if (!reader.ok()) return {{}, ReadStatus::kError, DamageKind::kNone, reader.message()};
    Drained d = Drain(*reader, way);
    if (way == kAllWays[0]) {
      first = std::move(d);
      continue;
    }
    EXPECT_TRUE(SameRecords(d.records, first.records)) << static_cast<int>(way);
    EXPECT_EQ(d.last, first.last) << static_cast<int>(way);
    EXPECT_EQ(d.damage, first.damage) << static_cast<int>(way);
    EXPECT_EQ(d.error, first.error) << static_cast<int>(way);
  }
  return first;
}

// A sample trace with several frames; returns its bytes.
std::string MultiFrameFile(const std::string& path) {
  EXPECT_TRUE(WriteTrace(path, MakeSampleTrace(), {.events_per_frame = 3}).ok());
  return ReadFileBytes(path);
}

// A file with the sample header followed by one hand-built frame.
std::string FileWithFrame(const std::string& payload, uint32_t uncompressed, uint32_t count) {
  std::string bytes = EncodeFileHeader(MakeSampleTrace().header);
  bytes += EncodeFrameHeader(payload, uncompressed, count);
  bytes += payload;
  return bytes;
}

std::string Compress(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3));
  return out;
}

Drained ReadBytes(const std::string& name, const std::string& bytes) {
  const std::string path = TempPath(name);
  WriteFileBytes(path, bytes);
  return DrainEveryWay(path);
}

TEST(TraceReaderTest, ReadsSample) {
  const std::string path = TempPath("sample.trace");
  const Trace sample = MakeSampleTrace();
  ASSERT_TRUE(WriteTrace(path, sample).ok());
  for (Way way : kAllWays) {
    auto reader = TraceReader::Open(path);
    ASSERT_TRUE(reader.ok()) << reader.message();
    EXPECT_EQ(reader->header().compat(), "1.27");
    Drained d = Drain(*reader, way);
    EXPECT_EQ(d.last, ReadStatus::kEnd);
    EXPECT_EQ(d.damage, DamageKind::kNone);
    EXPECT_TRUE(SameRecords(d.records, sample.records));
    EXPECT_EQ(reader->Next(nullptr), ReadStatus::kEnd);  // stays at the end
    const Record* borrowed = nullptr;
    EXPECT_EQ(reader->NextBorrowed(&borrowed), ReadStatus::kEnd);
    EXPECT_EQ(borrowed, nullptr);
  }
}

// Next and NextBorrowed may be mixed; each returns the next record.
TEST(TraceReaderTest, NextAndNextBorrowedInterleave) {
  const std::string path = TempPath("mixed.trace");
  const Trace sample = MakeSampleTrace();
  ASSERT_TRUE(WriteTrace(path, sample, {.events_per_frame = 2}).ok());
  for (Way way : kAllWays) {
    auto reader = TraceReader::Open(path);
    ASSERT_TRUE(reader.ok()) << reader.message();
    std::vector<Record> got;
    for (size_t i = 0;; ++i) {
      Record owned;
      const Record* borrowed = nullptr;
      const ReadStatus s = i % 3 == 0 ? reader->Next(&owned) : reader->NextBorrowed(&borrowed);
      if (s != ReadStatus::kRecord) {
        EXPECT_EQ(s, ReadStatus::kEnd) << reader->error();
        break;
      }
      got.push_back(i % 3 == 0 ? owned : *borrowed);
    }
    EXPECT_TRUE(SameRecords(got, sample.records));
    EXPECT_EQ(reader->records_read(), static_cast<int64_t>(sample.records.size()));
  }
}

// Records of many sizes over several frames.
std::vector<Record> ManyRecords(size_t n) {
  std::vector<Record> records;
  for (size_t i = 0; i < n; ++i) {
    Record r;
    r.set_time_ns(static_cast<int64_t>(i) * 1000);
    Attempt* a = r.mutable_attempt();
    a->set_pod("default/pod-" + std::to_string(i));
    a->set_attempt(static_cast<int32_t>(i % 7));
    for (size_t t = 0; t < i % 13; ++t) a->add_ties("node-" + std::to_string(t * i));
    a->set_message(std::string(i % 97, 'm'));
    records.push_back(std::move(r));
  }
  return records;
}

// Many records over several frames read the same every way, also when the caller switches
// between Next(Record*) and NextBorrowed in the middle of a frame, and when the reader is moved
// in the middle of a frame.
TEST(TraceReaderTest, ManyRecordsAcrossFramesSwitchesAndMoves) {
  const std::string path = TempPath("many.trace");
  Trace trace;
  trace.records = ManyRecords(3000);
  ASSERT_TRUE(WriteTrace(path, trace, {.events_per_frame = 700}).ok());
  const Drained all = DrainEveryWay(path);
  EXPECT_EQ(all.last, ReadStatus::kEnd) << all.error;
  EXPECT_TRUE(SameRecords(all.records, trace.records));

  auto reader = TraceReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.message();
  std::vector<Record> got;
  Record owned;
  for (size_t i = 0;; ++i) {
    if (i == 1000) {  // mid-frame
      TraceReader moved = std::move(*reader);
      *reader = std::move(moved);
    }
    const Record* borrowed = nullptr;
    // Next for a stretch in the middle of the second frame, NextBorrowed otherwise.
    const bool own = i >= 900 && i < 950;
    const ReadStatus s = own ? reader->Next(&owned) : reader->NextBorrowed(&borrowed);
    if (s != ReadStatus::kRecord) {
      EXPECT_EQ(s, ReadStatus::kEnd) << reader->error();
      break;
    }
    got.push_back(own ? owned : *borrowed);
  }
  EXPECT_TRUE(SameRecords(got, trace.records));
}

// A record that does not parse, deep in a frame, is reported at its Next with the same message
// every way, after the 300 records before it.
TEST(TraceReaderTest, UnparsableRecordDeepInAFrame) {
  const std::vector<Record> good = ManyRecords(400);
  std::string plain;
  for (size_t i = 0; i < 300; ++i) AppendDelimited(good[i], &plain);
  plain += std::string("\x02\xff\xff", 3);
  for (size_t i = 300; i < 400; ++i) AppendDelimited(good[i], &plain);
  const Drained d =
      ReadBytes("deep_unparsable.trace", FileWithFrame(Compress(plain), plain.size(), 401));
  EXPECT_EQ(d.records.size(), 300u);
  EXPECT_EQ(d.damage, DamageKind::kCorrupt);
  EXPECT_NE(d.error.find("(frame 0, event 300): corrupt frame: Record does not parse (record 300 "),
            std::string::npos)
      << d.error;
}

TEST(TraceReaderTest, HeaderOnlyFileIsEmpty) {
  const std::string path = TempPath("empty.trace");
  ASSERT_TRUE(WriteTrace(path, Trace()).ok());
  auto records = ReadAll(path);
  ASSERT_TRUE(records.ok()) << records.message();
  EXPECT_TRUE(records->empty());
}

TEST(TraceReaderTest, TruncationAtEveryOffset) {
  const std::string full = MultiFrameFile(TempPath("full.trace"));
  const std::vector<FrameInfo> frames = Frames(full);
  ASSERT_GE(frames.size(), 4u);
  const std::string path = TempPath("cut.trace");
  for (size_t cut = 0; cut < full.size(); ++cut) {
    WriteFileBytes(path, full.substr(0, cut));
    auto reader = TraceReader::Open(path);
    if (cut < frames[0].offset) {
      ASSERT_FALSE(reader.ok()) << cut;
      EXPECT_NE(reader.message().find("truncated file header"), std::string::npos)
          << reader.message();
      continue;
    }
    ASSERT_TRUE(reader.ok()) << cut << ": " << reader.message();
    size_t complete = 0;  // frames entirely before the cut
    while (complete < frames.size() && frames[complete].end <= cut) ++complete;
    const size_t want =
        complete < frames.size() ? frames[complete].first_event : MakeSampleTrace().records.size();
    const Drained d = DrainEveryWay(path);
    EXPECT_EQ(d.records.size(), want) << "cut at " << cut;
    const bool at_boundary =
        cut == frames[0].offset || (complete > 0 && frames[complete - 1].end == cut);
    if (at_boundary) {
      EXPECT_EQ(d.last, ReadStatus::kEnd) << cut << ": " << d.error;
    } else {
      EXPECT_EQ(d.last, ReadStatus::kError) << cut;
      EXPECT_EQ(d.damage, DamageKind::kTruncated) << cut << ": " << d.error;
      const std::string where = "cut.trace: byte " + std::to_string(frames[complete].offset) +
                                " (frame " + std::to_string(complete) + ", event " +
                                std::to_string(want) + "): truncated frame: need ";
      EXPECT_NE(d.error.find(where), std::string::npos) << d.error;
    }
  }
}

TEST(TraceReaderTest, BitFlipInEveryFrameByteIsCorruptionAtThatFrame) {
  const std::string full = MultiFrameFile(TempPath("flip_src.trace"));
  const std::vector<FrameInfo> frames = Frames(full);
  const std::vector<Record> all = MakeSampleTrace().records;
  const std::string path = TempPath("flip.trace");
  for (size_t f = 0; f < frames.size(); ++f) {
    for (size_t pos = frames[f].offset; pos < frames[f].end; ++pos) {
      std::string bytes = full;
      bytes[pos] = static_cast<char>(bytes[pos] ^ 0x10);
      WriteFileBytes(path, bytes);
      const Drained d = DrainEveryWay(path);
      ASSERT_EQ(d.last, ReadStatus::kError) << "flip at " << pos;
      EXPECT_EQ(d.damage, DamageKind::kCorrupt) << pos << ": " << d.error;
      const std::string where = "byte " + std::to_string(frames[f].offset) + " (frame " +
                                std::to_string(f) + ", event " +
                                std::to_string(frames[f].first_event) + "): corrupt frame";
      EXPECT_NE(d.error.find(where), std::string::npos) << d.error;
      ASSERT_EQ(d.records.size(), frames[f].first_event);
      EXPECT_TRUE(
          SameRecords(d.records, std::vector<Record>(all.begin(), all.begin() + d.records.size())));
    }
  }
}

TEST(TraceReaderTest, BitFlipInFileHeaderFailsOpen) {
  const std::string full = MultiFrameFile(TempPath("hflip_src.trace"));
  const std::string path = TempPath("hflip.trace");
  for (size_t pos = 0; pos < Frames(full)[0].offset; ++pos) {
    std::string bytes = full;
    bytes[pos] = static_cast<char>(bytes[pos] ^ 0x01);
    WriteFileBytes(path, bytes);
    auto reader = TraceReader::Open(path);
    EXPECT_FALSE(reader.ok()) << pos;
  }
}

TEST(TraceReaderTest, NotATraceAndWrongVersion) {
  WriteFileBytes(TempPath("text.txt"), "hello, this is not a trace at all\n");
  auto text = TraceReader::Open(TempPath("text.txt"));
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.message().find("not a schedcheck trace"), std::string::npos) << text.message();

  std::string bytes = EncodeFileHeader(Header());
  bytes[8] = 9;  // version 9
  WriteFileBytes(TempPath("v9.trace"), bytes);
  auto v9 = TraceReader::Open(TempPath("v9.trace"));
  ASSERT_FALSE(v9.ok());
  EXPECT_NE(v9.message().find("unsupported format version 9"), std::string::npos);
  EXPECT_FALSE(TraceReader::Open(TempPath("does-not-exist")).ok());
}

long MaxRssKb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// 256 MiB of zeros compressed by streaming (the test itself never holds them).
std::string ZeroBomb(size_t total, bool with_content_size) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, with_content_size ? 1 : 0);
  if (with_content_size) ZSTD_CCtx_setPledgedSrcSize(cctx, total);
  const std::string chunk(1 << 20, '\0');
  std::string out;
  std::string buf(ZSTD_CStreamOutSize(), '\0');
  for (size_t done = 0; done < total; done += chunk.size()) {
    ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
    const bool last = done + chunk.size() >= total;
    size_t remaining;
    do {
      ZSTD_outBuffer o{buf.data(), buf.size(), 0};
      remaining = ZSTD_compressStream2(cctx, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
      out.append(buf.data(), o.pos);
    } while (in.pos < in.size || (last && remaining != 0));
  }
  ZSTD_freeCCtx(cctx);
  return out;
}

TEST(TraceReaderTest, DecompressionBombsRejectedWithBoundedMemory) {
  const long before = MaxRssKb();
  for (bool with_size : {true, false}) {
    const std::string bomb = ZeroBomb(size_t{256} << 20, with_size);
    ASSERT_LT(bomb.size(), size_t{1} << 20);
    const Drained d = ReadBytes("bomb.trace", FileWithFrame(bomb, 1000, 1));
    EXPECT_EQ(d.last, ReadStatus::kError);
    EXPECT_EQ(d.damage, DamageKind::kCorrupt);
    EXPECT_NE(d.error.find("zstd content size"), std::string::npos) << d.error;
  }
  EXPECT_LT(MaxRssKb() - before, 32 * 1024) << "reader allocated more than 32 MiB";

  // Declared sizes beyond the limits are rejected before allocating.
  const std::string small = Compress("x");
  for (const auto& [compressed, uncompressed] :
       std::vector<std::pair<uint32_t, uint32_t>>{{0xFFFFFFF0u, 1}, {1, 0xFFFFFFF0u}}) {
    std::string bytes = EncodeFileHeader(Header());
    std::string h;
    PutU32(&h, kFrameMagic);
    PutU32(&h, compressed);
    PutU32(&h, uncompressed);
    PutU32(&h, 1);
    PutU32(&h, Crc32c(small));
    PutU32(&h, Crc32c(h));
    bytes += h + small;
    const Drained d = ReadBytes("absurd.trace", bytes);
    EXPECT_EQ(d.damage, DamageKind::kCorrupt);
    EXPECT_NE(d.error.find("absurd sizes"), std::string::npos) << d.error;
  }
  EXPECT_LT(MaxRssKb() - before, 32 * 1024);
}

TEST(TraceReaderTest, AbsurdAndInconsistentRecordLengths) {
  struct Case {
    std::string name;
    std::string plain;
    uint32_t count;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"huge length prefix", std::string("\xff\xff\xff\x7f", 4) + "abc", 1, "record length"},
      {"length past the end", std::string("\x10", 1) + "abc", 1, "record length"},
      {"overlong varint", std::string("\xff\xff\xff\xff\xff\x01", 6), 1, "bad length prefix"},
      {"fewer records than declared", std::string("\x02\x08\x05", 3), 2, "bad length prefix"},
      {"trailing bytes", std::string("\x00\x00", 2), 1, "bytes after the declared 1 records"},
      {"garbage record", std::string("\x02\xff\xff", 3), 1, "Record does not parse"},
  };
  for (const Case& c : cases) {
    const Drained d =
        ReadBytes("lengths.trace", FileWithFrame(Compress(c.plain), c.plain.size(), c.count));
    EXPECT_EQ(d.damage, DamageKind::kCorrupt) << c.name;
    EXPECT_NE(d.error.find(c.want), std::string::npos) << c.name << ": " << d.error;
    EXPECT_TRUE(d.records.empty()) << c.name;
  }
}

}  // namespace
}  // namespace schedcheck::trace

namespace schedcheck::trace {
namespace {

// Records are parsed once, at Next: a record that does not parse inside a structurally valid
// frame is reported there, after the frame's good records, naming the frame and the record.
TEST(TraceReaderTest, UnparsableRecordReportedAtNextWithItsPosition) {
  Record good;
  good.set_time_ns(7);
  std::string plain;
  AppendDelimited(good, &plain);
  const size_t bad_at = plain.size();
  plain += std::string("\x02\xff\xff", 3);
  const std::string bytes = FileWithFrame(Compress(plain), plain.size(), 2);
  const size_t frame_offset = EncodeFileHeader(MakeSampleTrace().header).size();
  const Drained d = ReadBytes("unparsable.trace", bytes);
  ASSERT_EQ(d.records.size(), 1u);
  EXPECT_EQ(d.records[0].time_ns(), 7);
  EXPECT_EQ(d.last, ReadStatus::kError);
  EXPECT_EQ(d.damage, DamageKind::kCorrupt);
  const std::string want = "byte " + std::to_string(frame_offset) +
                           " (frame 0, event 1): corrupt frame: Record does not parse (record 1 "
                           "of the frame, at uncompressed byte " +
                           std::to_string(bad_at) + ")";
  EXPECT_NE(d.error.find(want), std::string::npos) << d.error;
}

}  // namespace
}  // namespace schedcheck::trace
