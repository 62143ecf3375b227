// TraceReader: streams the records of a schedcheck trace file (layout in traces/README.md).
//
// Memory is bounded by one frame (at most kMaxFrameCompressedBytes + kMaxFrameUncompressedBytes,
// plus one record) whatever the file size. A frame's records are returned only once the whole
// frame has been read, checksummed, decompressed and its length prefixes checked, so the reader
// returns every record of every complete frame before the first damage, then stops with kError.
// Each record is parsed once, when Next returns it, by RecordParser (fast_record_parser.h: a
// hand-written parser that assigns the record over the previous one in place, with protobuf's
// parser as its fallback, so results and errors are protobuf's); a record that does not parse
// (possible only when the writer itself produced bad bytes: the CRC covers the payload) is reported
// at that Next, after the frame's earlier records, as kCorrupt naming the frame and the record.
// Damage is classified: kTruncated (the file ends inside a frame; the normal state of a file whose
// writer was killed) versus kCorrupt (bad magic, checksum, lengths, zstd data or protobuf). error()
// names the file, the byte offset of the damaged frame, the frame index and the index of its first
// event (both 0-based), e.g.
//   trace.bin: byte 1234 (frame 3, event 8192): truncated frame: need 5000 payload bytes, file has
//   812
// Not thread-safe.
#ifndef SCHEDCHECK_TRACES_TRACE_READER_H_
#define SCHEDCHECK_TRACES_TRACE_READER_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/fast_record_parser.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

enum class ReadStatus { kRecord, kEnd, kError };

enum class DamageKind {
  kNone,       // no error (yet), or a clean end of file
  kTruncated,  // the file ends inside a frame header or payload
  kCorrupt,    // bytes present but wrong
  kIo,         // the operating system reported a read error
  kLimit,      // intact, but beyond an InputLimits limit (records, string or map sizes)
};

const char* DamageKindName(DamageKind kind);

class TraceReader {
 public:
  // Opens `path` and reads and verifies the file header. Fails (with "truncated" or "corrupt" in
  // the message) when the file header itself is damaged, or the file is not a trace. Every record
  // (and the header) is checked against `limits`; a record beyond them ends the read with kError,
  // damage() kLimit, after the records before it.
  static Result<TraceReader> Open(const std::string& path, const InputLimits& limits = {});

  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;
  ~TraceReader();

  const Header& header() const { return header_; }

  // kRecord: *record holds the next record. kEnd: clean end of file (the file ends exactly at a
  // frame boundary). kError: see damage() and error(); later calls return kError again. The
  // record is assigned over what *record held, reusing its allocations: passing the same Record
  // on every call is the fast way to read (a record of another kind than the previous one may
  // take over parts kept by the reader from earlier records).
  ReadStatus Next(Record* record);

  // The same, into a reader-owned Record reused from call to call: on kRecord, *record points at
  // it until the next call to Next or NextBorrowed (or the reader's destruction); otherwise
  // *record is nullptr. For callers that look at each record and move on.
  ReadStatus NextBorrowed(const Record** record);

  DamageKind damage() const { return damage_; }
  const std::string& error() const { return error_; }

  // Complete frames decoded so far, records returned so far, and the offset just past the last
  // complete frame.
  int64_t frames_read() const { return frames_read_; }
  int64_t records_read() const { return records_read_; }
  uint64_t offset() const { return offset_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const;
  };
  struct DctxDeleter {
    void operator()(void* dctx) const;
  };

  // Where one record's bytes are in the decompressed frame (after its length prefix).
  struct RecordSpan {
    uint32_t offset = 0;
    uint32_t size = 0;
  };

  TraceReader(std::string path, std::FILE* file, const InputLimits& limits);

  // Reads and validates the next frame into plain_. Returns kRecord, kEnd or kError.
  ReadStatus ReadFrame();
  ReadStatus DecodeFrame(const FrameHeader& h);
  ReadStatus Damage(DamageKind kind, int64_t event, const std::string& what);
  // Advances to the next record and stores its bytes in *bytes (kRecord), or returns kEnd/kError.
  ReadStatus NextBytes(const char** bytes, int* size);
  // Accounts for a record returned (parsed) or reports the one that did not parse.
  ReadStatus Parsed(bool ok, const Record& record, int size);

  std::string path_;
  InputLimits limits_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::unique_ptr<void, DctxDeleter> dctx_;
  RecordParser parser_;
  std::unique_ptr<Record> borrowed_;  // NextBorrowed's record, created by its first call
  Header header_;
  uint64_t offset_ = 0;  // start of the next frame
  int64_t frames_read_ = 0;
  int64_t records_read_ = 0;
  std::string payload_;        // compressed bytes of the current frame
  std::string plain_;          // decompressed bytes of the current frame
  size_t record_start_ = 0;    // length prefix of the record being returned
  uint32_t frame_left_ = 0;    // records of the current frame not yet returned
  uint32_t frame_count_ = 0;   // records of the current frame
  uint64_t frame_offset_ = 0;  // first byte of the current frame
  DamageKind damage_ = DamageKind::kNone;
  std::string error_;
  bool done_ = false;
  std::vector<RecordSpan> spans_;  // the current frame's records, found by DecodeFrame
};

// Reads a whole trace; fails on any damage (the message is TraceReader::error()).
Result<Trace> ReadTrace(const std::string& path, const InputLimits& limits = {});
Result<std::vector<Record>> ReadAll(const std::string& path, const InputLimits& limits = {});

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_READER_H_
