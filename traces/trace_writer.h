// TraceWriter: writes a schedcheck trace file (layout in traces/README.md).
//
// Two modes:
//  - kAtomic (default): records go to a temporary file beside the target ("<target>.tmp.<pid>");
//    Finish() fsyncs it and renames it over the target. Destroying the writer without Finish(),
//    or any failure, removes the temporary file, so the target is either absent/unchanged or
//    complete. A process killed mid-write leaves the temporary file, whose complete frames read
//    back with TraceReader (it reports the cut as truncation).
//  - kRecorder: for long-running recorders; writes the target itself. Every frame written is
//    readable at once, so a killed recorder leaves a target whose complete frames read back.
//    Destroying the writer without Finish() flushes the pending records and keeps the file.
// In both modes a frame is written every `events_per_frame` records and on Flush(). Frames are
// written with write(2), so they survive the death of the process (not of the machine: only
// Finish() fsyncs).
//
// Not thread-safe. Output is deterministic: the same header and records give the same bytes.
#ifndef SCHEDCHECK_TRACES_TRACE_WRITER_H_
#define SCHEDCHECK_TRACES_TRACE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/output_path.h"
#include "traces/trace.pb.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {

struct WriterOptions {
  enum class Mode { kAtomic, kRecorder };
  Mode mode = Mode::kAtomic;
  // A frame is flushed once this many records are pending. REQUIRES: > 0.
  size_t events_per_frame = 4096;
  // The header is only known at the end (an importer counts what it dropped while it writes):
  // Open's header is not written, frames wait in memory, compressed (a day's capture is about
  // 13 MiB), and FinishWithHeader writes the header, then them. kAtomic only.
  bool header_last = false;
};

class TraceWriter {
 public:
  // Creates the output file and writes the file header. header.format_version is set to
  // kFormatVersion.
  // kAtomic writes as traces/output_path.h says: a regular file is replaced atomically, a FIFO or
  // device written directly, a symlink followed, "-" is standard output (refused on a terminal).
  static Result<std::unique_ptr<TraceWriter>> Open(const std::string& path, Header header,
                                                   WriterOptions options = {});

  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  ~TraceWriter();

  // Adds one record; writes a frame when events_per_frame are pending (or when the frame would
  // exceed kMaxFrameUncompressedBytes). Fails on I/O errors and on records larger than
  // kMaxRecordBytes. After a failure the writer is unusable.
  Outcome Append(const Record& record);

  // Writes the pending records (if any) as one frame.
  Outcome Flush();

  // Flushes, fsyncs, closes and (kAtomic) renames onto the target. Call once.
  Outcome Finish();
  // Finish for a header_last writer: writes `header` (format_version set as Open does) before
  // the frames. Fails, writing nothing, on a header beyond kMaxHeaderBytes.
  Outcome FinishWithHeader(Header header);

  const std::string& path() const { return path_; }
  // Where the bytes currently go: the temporary file (kAtomic) or the target.
  const std::string& write_path() const { return write_path_; }
  int64_t frames_written() const { return frames_written_; }
  int64_t records_written() const { return records_written_; }

 private:
  TraceWriter(std::string path, std::string write_path, int fd, WriterOptions options);
  // Closes fd_: through output_ (kAtomic: which also removes its temporary file) or directly.
  void CloseFd();

  Outcome WriteAll(std::string_view bytes);
  Outcome Fail(std::string message);
  void Abandon();

  std::string path_;
  std::string write_path_;
  int fd_ = -1;
  std::unique_ptr<OutputFile> output_;  // kAtomic: owns fd_
  WriterOptions options_;
  std::string pending_;   // varint-delimited serialized records
  std::string frame_;     // the frame being written (header + compressed payload), reused
  std::string held_;      // header_last: the frames written so far, until the header is known
  bool holding_ = false;  // header_last and the header not written yet
  uint32_t pending_count_ = 0;
  int64_t frames_written_ = 0;
  int64_t records_written_ = 0;
  bool failed_ = false;
  bool finished_ = false;
  struct Compressor;
  std::unique_ptr<Compressor> compressor_;
};

// Writes a whole trace atomically.
Outcome WriteTrace(const std::string& path, const Trace& trace, WriterOptions options = {});

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_WRITER_H_
