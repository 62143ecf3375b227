#include "traces/trace_reader.h"

#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "traces/crc32c.h"
#include "traces/fast_record_parser.h"

namespace schedcheck::trace {
namespace {

// Reads up to n bytes; returns how many were read (fewer only at end of file or on error).
size_t ReadUpTo(std::FILE* f, char* dst, size_t n) {
  size_t got = 0;
  while (got < n) {
    const size_t r = std::fread(dst + got, 1, n - got, f);
    if (r == 0) break;
    got += r;
  }
  return got;
}

std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

// Parses a varint32 of at most 5 bytes at data[*pos, end). Returns false if malformed.
bool ParseVarint32(const std::string& data, size_t* pos, uint32_t* value) {
  uint64_t v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (*pos >= data.size()) return false;
    const auto byte = static_cast<unsigned char>(data[(*pos)++]);
    v |= static_cast<uint64_t>(byte & 0x7Fu) << shift;
    if ((byte & 0x80u) == 0) {
      if (v > UINT32_MAX) return false;
      *value = static_cast<uint32_t>(v);
      return true;
    }
  }
  return false;
}

}  // namespace

const char* DamageKindName(DamageKind kind) {
  switch (kind) {
    case DamageKind::kNone:
      return "none";
    case DamageKind::kTruncated:
      return "truncated";
    case DamageKind::kCorrupt:
      return "corrupt";
    case DamageKind::kIo:
      return "io";
    case DamageKind::kLimit:
      return "limit";
  }
  return "unknown";
}

void TraceReader::FileCloser::operator()(std::FILE* f) const { std::fclose(f); }
void TraceReader::DctxDeleter::operator()(void* dctx) const {
  ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx));
}

TraceReader::TraceReader(std::string path, std::FILE* file, const InputLimits& limits)
    : path_(std::move(path)), limits_(limits), file_(file), dctx_(ZSTD_createDCtx()) {}
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;
TraceReader::~TraceReader() = default;

Result<TraceReader> TraceReader::Open(const std::string& path, const InputLimits& limits) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return Error{path + ": cannot open: " + std::strerror(errno)};
  TraceReader reader(path, f, limits);
  if (reader.dctx_ == nullptr) return Error{path + ": cannot create zstd context"};
  const auto fail = [&](const std::string& what) { return Error{path + ": byte 0: " + what}; };

  std::string prefix(kFileHeaderPrefixSize, '\0');
  const size_t got = ReadUpTo(f, prefix.data(), prefix.size());
  const size_t magic_got = std::min(got, kFileMagic.size());
  if (std::string_view(prefix.data(), magic_got) != kFileMagic.substr(0, magic_got)) {
    return fail("not a schedcheck trace (bad magic; expected \"SCHEDTRC\")");
  }
  if (got < prefix.size()) {
    return fail("truncated file header: need " + std::to_string(prefix.size()) +
                " bytes, file has " + std::to_string(got));
  }
  const uint32_t version = GetU32(prefix.data() + 8);
  if (version != kFormatVersion) {
    return fail("unsupported format version " + std::to_string(version) + " (this build reads " +
                std::to_string(kFormatVersion) + ")");
  }
  const uint32_t header_size = GetU32(prefix.data() + 12);
  if (header_size > kMaxHeaderBytes) {
    return fail("corrupt file header: header length " + std::to_string(header_size) +
                " exceeds the limit " + std::to_string(kMaxHeaderBytes));
  }
  std::string rest(header_size + 4, '\0');
  const size_t rest_got = ReadUpTo(f, rest.data(), rest.size());
  if (rest_got < rest.size()) {
    return fail("truncated file header: need " + std::to_string(rest.size()) +
                " header bytes after byte 16, file has " + std::to_string(rest_got));
  }
  const uint32_t stored = GetU32(rest.data() + header_size);
  const uint32_t computed = Crc32cExtend(Crc32c(prefix), rest.data(), header_size);
  if (stored != computed) {
    return fail("corrupt file header: CRC32C mismatch (stored " + Hex(stored) + ", computed " +
                Hex(computed) + ")");
  }
  if (!reader.header_.ParseFromArray(rest.data(), static_cast<int>(header_size))) {
    return fail("corrupt file header: Header proto does not parse");
  }
  if (Outcome ok = CheckMessageLimits(reader.header_, limits, path + ": byte 16: file header"); !ok)
    return ok.error();
  reader.offset_ = kFileHeaderPrefixSize + rest.size();
  return reader;
}

ReadStatus TraceReader::Damage(DamageKind kind, int64_t event, const std::string& what) {
  damage_ = kind;
  error_ = path_ + ": byte " + std::to_string(offset_) + " (frame " + std::to_string(frames_read_) +
           ", event " + std::to_string(event) + "): " + what;
  done_ = true;
  frame_left_ = 0;
  return ReadStatus::kError;
}

ReadStatus TraceReader::NextBytes(const char** bytes, int* size) {
  if (frame_left_ == 0) {
    if (done_) return damage_ == DamageKind::kNone ? ReadStatus::kEnd : ReadStatus::kError;
    const ReadStatus s = ReadFrame();
    if (s != ReadStatus::kRecord) return s;
  }
  // DecodeFrame checked every length prefix and noted where each record is, so only the protobuf
  // parse can fail.
  const size_t index = frame_count_ - frame_left_;
  const RecordSpan& span = spans_[index];
  record_start_ = index == 0 ? 0 : size_t{spans_[index - 1].offset} + spans_[index - 1].size;
  *bytes = plain_.data() + span.offset;
  *size = static_cast<int>(span.size);
  return ReadStatus::kRecord;
}

ReadStatus TraceReader::Parsed(bool ok, const Record& record, int size) {
  if (ok) {
    Outcome fits = records_read_ >= limits_.records ? Outcome(TooManyRecords("", limits_.records))
                   : FitsTrivially(record, static_cast<size_t>(size), limits_)
                       ? Outcome::Ok()
                       : CheckMessageLimits(record, limits_, "");
    if (!fits) {
      offset_ = frame_offset_;  // the frame's records are not all returned
      --frames_read_;
      return Damage(DamageKind::kLimit, records_read_, fits.message());
    }
  }
  if (!ok) {
    const uint32_t index = frame_count_ - frame_left_;
    offset_ = frame_offset_;  // the damaged frame is not complete
    --frames_read_;
    return Damage(DamageKind::kCorrupt, records_read_,
                  "corrupt frame: Record does not parse (record " + std::to_string(index) +
                      " of the frame, at uncompressed byte " + std::to_string(record_start_) + ")");
  }
  --frame_left_;
  ++records_read_;
  return ReadStatus::kRecord;
}

ReadStatus TraceReader::Next(Record* record) {
  const char* bytes = nullptr;
  int size = 0;
  const ReadStatus s = NextBytes(&bytes, &size);
  if (s != ReadStatus::kRecord) return s;
  return Parsed(parser_.Parse(bytes, static_cast<size_t>(size), record), *record, size);
}

ReadStatus TraceReader::NextBorrowed(const Record** record) {
  *record = nullptr;
  const char* bytes = nullptr;
  int size = 0;
  const ReadStatus s = NextBytes(&bytes, &size);
  if (s != ReadStatus::kRecord) return s;
  if (borrowed_ == nullptr) borrowed_ = std::make_unique<Record>();
  // Overwrites the previous borrowed record in place, reusing its allocations.
  const ReadStatus result =
      Parsed(parser_.Parse(bytes, static_cast<size_t>(size), borrowed_.get()), *borrowed_, size);
  if (result == ReadStatus::kRecord) *record = borrowed_.get();
  return result;
}

ReadStatus TraceReader::ReadFrame() {
  const int64_t event = records_read_;
  char raw[kFrameHeaderSize];
  const size_t got = ReadUpTo(file_.get(), raw, sizeof(raw));
  if (std::ferror(file_.get())) {
    return Damage(DamageKind::kIo, event, std::string("read error: ") + std::strerror(errno));
  }
  if (got == 0) {
    done_ = true;
    return ReadStatus::kEnd;
  }
  if (got < kFrameHeaderSize) {
    return Damage(DamageKind::kTruncated, event,
                  "truncated frame: need " + std::to_string(kFrameHeaderSize) +
                      " header bytes, file has " + std::to_string(got));
  }
  const FrameHeader h = DecodeFrameHeader(raw);
  if (h.magic != kFrameMagic) {
    return Damage(
        DamageKind::kCorrupt, event,
        "corrupt frame: bad frame magic " + Hex(h.magic) + " (expected " + Hex(kFrameMagic) + ")");
  }
  if (const uint32_t crc = FrameHeaderCrc(raw); crc != h.header_crc) {
    return Damage(DamageKind::kCorrupt, event,
                  "corrupt frame: frame header CRC32C mismatch (stored " + Hex(h.header_crc) +
                      ", computed " + Hex(crc) + ")");
  }
  if (h.compressed_size > kMaxFrameCompressedBytes ||
      h.uncompressed_size > kMaxFrameUncompressedBytes || h.record_count > h.uncompressed_size ||
      h.record_count == 0) {
    return Damage(DamageKind::kCorrupt, event,
                  "corrupt frame: absurd sizes (compressed " + std::to_string(h.compressed_size) +
                      ", uncompressed " + std::to_string(h.uncompressed_size) + ", records " +
                      std::to_string(h.record_count) + "; limits " +
                      std::to_string(kMaxFrameCompressedBytes) + "/" +
                      std::to_string(kMaxFrameUncompressedBytes) + ")");
  }
  payload_.resize(h.compressed_size);
  const size_t payload_got = ReadUpTo(file_.get(), payload_.data(), payload_.size());
  if (std::ferror(file_.get())) {
    return Damage(DamageKind::kIo, event, std::string("read error: ") + std::strerror(errno));
  }
  if (payload_got < h.compressed_size) {
    return Damage(DamageKind::kTruncated, event,
                  "truncated frame: need " + std::to_string(h.compressed_size) +
                      " payload bytes, file has " + std::to_string(payload_got));
  }
  if (const uint32_t crc = Crc32c(payload_); crc != h.payload_crc) {
    return Damage(DamageKind::kCorrupt, event,
                  "corrupt frame: payload CRC32C mismatch (stored " + Hex(h.payload_crc) +
                      ", computed " + Hex(crc) + ")");
  }
  const ReadStatus s = DecodeFrame(h);
  if (s != ReadStatus::kRecord) return s;
  frame_offset_ = offset_;
  frame_count_ = h.record_count;
  offset_ += kFrameHeaderSize + h.compressed_size;
  ++frames_read_;
  return ReadStatus::kRecord;
}

// Decompresses payload_ into exactly h.uncompressed_size bytes and parses h.record_count records.
ReadStatus TraceReader::DecodeFrame(const FrameHeader& h) {
  const int64_t event = records_read_;
  const auto corrupt = [&](int64_t at, const std::string& what) {
    return Damage(DamageKind::kCorrupt, at, "corrupt frame: " + what);
  };
  if (ZSTD_findFrameCompressedSize(payload_.data(), payload_.size()) != payload_.size()) {
    return corrupt(event, "payload is not exactly one zstd frame");
  }
  const unsigned long long content = ZSTD_getFrameContentSize(payload_.data(), payload_.size());
  if (content != h.uncompressed_size) {
    return corrupt(event, "zstd content size " +
                              (content == ZSTD_CONTENTSIZE_UNKNOWN ? std::string("unknown")
                               : content == ZSTD_CONTENTSIZE_ERROR ? std::string("invalid")
                                                                   : std::to_string(content)) +
                              " differs from the declared " + std::to_string(h.uncompressed_size));
  }
  plain_.resize(h.uncompressed_size);
  auto* dctx = static_cast<ZSTD_DCtx*>(dctx_.get());
  const size_t n =
      ZSTD_decompressDCtx(dctx, plain_.data(), plain_.size(), payload_.data(), payload_.size());
  if (ZSTD_isError(n)) return corrupt(event, std::string("zstd: ") + ZSTD_getErrorName(n));
  if (n != plain_.size()) {
    return corrupt(event, "decompressed " + std::to_string(n) + " bytes, declared " +
                              std::to_string(plain_.size()));
  }
  // Structure only (length prefixes within the frame, the declared count); each record is parsed
  // once, by Next.
  size_t pos = 0;
  spans_.clear();
  for (uint32_t i = 0; i < h.record_count; ++i) {
    const size_t start = pos;
    const auto where = [&] {
      return " (record " + std::to_string(i) + " of the frame, at uncompressed byte " +
             std::to_string(start) + ")";
    };
    uint32_t size = 0;
    if (!ParseVarint32(plain_, &pos, &size))
      return corrupt(event + i, "bad length prefix" + where());
    if (size > kMaxRecordBytes || size > plain_.size() - pos) {
      return corrupt(event + i, "record length " + std::to_string(size) + " exceeds the limit (" +
                                    std::to_string(kMaxRecordBytes) + ") or the " +
                                    std::to_string(plain_.size() - pos) + " bytes left" + where());
    }
    spans_.push_back({static_cast<uint32_t>(pos), size});
    pos += size;
  }
  if (pos != plain_.size()) {
    return corrupt(event + h.record_count, std::to_string(plain_.size() - pos) +
                                               " bytes after the declared " +
                                               std::to_string(h.record_count) + " records");
  }
  frame_left_ = h.record_count;
  return ReadStatus::kRecord;
}

Result<Trace> ReadTrace(const std::string& path, const InputLimits& limits) {
  Result<TraceReader> reader = TraceReader::Open(path, limits);
  if (!reader.ok()) return reader.error();
  Trace trace;
  trace.header = reader->header();
  Record record;
  while (true) {
    switch (reader->Next(&record)) {
      case ReadStatus::kRecord:
        trace.records.push_back(std::move(record));
        break;
      case ReadStatus::kEnd:
        return trace;
      case ReadStatus::kError:
        return Error{reader->error()};
    }
  }
}

Result<std::vector<Record>> ReadAll(const std::string& path, const InputLimits& limits) {
  Result<Trace> trace = ReadTrace(path, limits);
  if (!trace.ok()) return trace.error();
  return std::move(trace->records);
}

}  // namespace schedcheck::trace
