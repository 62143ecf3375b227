// TraceReader: streams the records of a schedcheck trace file (layout in traces/README.md).
//
// Memory is bounded by one frame (at most kMaxFrameCompressedBytes + kMaxFrameUncompressedBytes,
// plus one record) whatever the file size. A frame's records are returned only once the whole
// frame has been read, checksummed, decompressed and its length prefixes checked, so the reader
// returns every record of every complete frame before the first damage, then stops with kError.
// Each record is parsed once, when Next returns it (with ReaderOptions::parse_threads > 1,
// NextBorrowed's records are parsed a little ahead, on other threads); a record that does not
// parse (possible only when the writer itself produced bad bytes: the CRC covers the payload) is
// reported at that Next, after the frame's earlier records, as kCorrupt naming the frame and the
// record. Damage is classified: kTruncated (the file ends inside a frame; the normal state of a
// file whose writer was killed) versus kCorrupt (bad magic, checksum, lengths, zstd data or
// protobuf). error() names the file, the byte offset of the damaged frame, the frame index and
// the index of its first event (both 0-based), e.g.
//   trace.bin: byte 1234 (frame 3, event 8192): truncated frame: need 5000 payload bytes, file has 812
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
#include "traces/frame_parser.h"
#include "traces/trace.pb.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

enum class ReadStatus { kRecord, kEnd, kError };

enum class DamageKind {
  kNone,       // no error (yet), or a clean end of file
  kTruncated,  // the file ends inside a frame header or payload
  kCorrupt,    // bytes present but wrong
  kIo,         // the operating system reported a read error
};

const char* DamageKindName(DamageKind kind);

struct ReaderOptions {
  // Threads that NextBorrowed parses with. 1: each record is parsed when it is returned, into
  // one small reused arena. More: when NextBorrowed reaches a new frame, the frame's records are
  // all parsed at once on this many threads (traces/frame_parser.h) and then handed out in order;
  // memory then holds a whole frame of parsed records. Errors and results are the same either way.
  int parse_threads = 1;
};

class TraceReader {
 public:
  // Opens `path` and reads and verifies the file header. Fails (with "truncated" or "corrupt" in
  // the message) when the file header itself is damaged, or the file is not a trace.
  static Result<TraceReader> Open(const std::string& path, ReaderOptions options = {});

  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;
  ~TraceReader();

  const Header& header() const { return header_; }

  // kRecord: *record holds the next record. kEnd: clean end of file (the file ends exactly at a
  // frame boundary). kError: see damage() and error(); later calls return kError again.
  ReadStatus Next(Record* record);

  // The same, but the record is parsed into a reader-owned protobuf arena: on kRecord, *record
  // points at it until the next call to Next or NextBorrowed (or the reader's destruction);
  // otherwise *record is nullptr. Faster for callers that look at each record and move on: no
  // per-field malloc/free, and the arena's one block stays hot in cache.
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

  // A FrameParser and whether it is handing out the current frame (`active`). Moving it stops
  // the workers first: they point into buffers of the reader that may move.
  struct ParserHandle {
    std::unique_ptr<FrameParser> parser;
    bool active = false;

    ParserHandle() = default;
    ParserHandle(ParserHandle&& other) noexcept { *this = std::move(other); }
    ParserHandle& operator=(ParserHandle&& other) noexcept {
      other.Stop();
      Stop();
      parser = std::move(other.parser);
      return *this;
    }
    void Stop() {
      if (active) parser->Stop();
      active = false;
    }
  };

  TraceReader(std::string path, std::FILE* file);

  // Reads and validates the next frame into plain_. Returns kRecord, kEnd or kError.
  ReadStatus ReadFrame();
  ReadStatus DecodeFrame(const FrameHeader& h);
  ReadStatus Damage(DamageKind kind, int64_t event, const std::string& what);
  // Advances to the next record and stores its bytes in *bytes (kRecord), or returns kEnd/kError.
  ReadStatus NextBytes(const char** bytes, int* size);
  // Accounts for a record returned (parsed) or reports the one that did not parse.
  ReadStatus Parsed(bool ok);

  // parse_threads > 1 only. Its workers read plain_ and spans_: declared first so that a move of
  // the reader stops them before those buffers move; the destructor stops them before they die.
  ParserHandle frame_parser_;
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::unique_ptr<void, DctxDeleter> dctx_;
  RecordParser parser_;
  std::unique_ptr<Record> borrowed_;  // NextBorrowed's record, created by its first call
  Header header_;
  uint64_t offset_ = 0;  // start of the next frame
  int64_t frames_read_ = 0;
  int64_t records_read_ = 0;
  std::string payload_;                // compressed bytes of the current frame
  std::string plain_;                  // decompressed bytes of the current frame
  size_t record_start_ = 0;            // length prefix of the record being returned
  uint32_t frame_left_ = 0;            // records of the current frame not yet returned
  uint32_t frame_count_ = 0;           // records of the current frame
  uint64_t frame_offset_ = 0;          // first byte of the current frame
  DamageKind damage_ = DamageKind::kNone;
  std::string error_;
  bool done_ = false;
  std::vector<RecordSpan> spans_;  // the current frame's records, found by DecodeFrame
};

// Reads a whole trace; fails on any damage (the message is TraceReader::error()).
Result<Trace> ReadTrace(const std::string& path);
Result<std::vector<Record>> ReadAll(const std::string& path);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_READER_H_
