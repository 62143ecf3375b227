#include "traces/trace_writer.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace schedcheck::trace {

struct TraceWriter::Compressor {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~Compressor() { ZSTD_freeCCtx(cctx); }

  // Compresses `src` as one zstd frame with fixed parameters (level, content size on, checksum
  // off: the frame CRC32C covers the payload, single-threaded), so output is deterministic.
  // Appends the compressed bytes to `out` (reused across frames: no allocation once it is big
  // enough) and returns their count.
  Result<size_t> CompressAppend(const std::string& src, std::string* out) {
    if (cctx == nullptr) return Error{"cannot create zstd context"};
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
    const size_t old = out->size();
    out->resize(old + ZSTD_compressBound(src.size()));
    const size_t n =
        ZSTD_compress2(cctx, out->data() + old, out->size() - old, src.data(), src.size());
    if (ZSTD_isError(n)) return Error{std::string("zstd: ") + ZSTD_getErrorName(n)};
    out->resize(old + n);
    return n;
  }
};

namespace {

std::string Errno(const std::string& what, const std::string& path) {
  return path + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

TraceWriter::TraceWriter(std::string path, std::string write_path, int fd, WriterOptions options)
    : path_(std::move(path)),
      write_path_(std::move(write_path)),
      fd_(fd),
      options_(options),
      compressor_(std::make_unique<Compressor>()) {}

namespace {

// Sets header.format_version; fails on a header beyond kMaxHeaderBytes.
Outcome PrepareHeader(const std::string& path, Header* header) {
  header->set_format_version(kFormatVersion);
  if (header->ByteSizeLong() > kMaxHeaderBytes) {
    return Error{path + ": header is " + std::to_string(header->ByteSizeLong()) + " bytes, limit " +
                 std::to_string(kMaxHeaderBytes)};
  }
  return Outcome::Ok();
}

}  // namespace

Result<std::unique_ptr<TraceWriter>> TraceWriter::Open(const std::string& path, Header header,
                                                       WriterOptions options) {
  if (options.events_per_frame == 0) return Error{path + ": events_per_frame must be > 0"};
  if (Outcome ok = PrepareHeader(path, &header); !ok) return ok.error();
  const bool atomic = options.mode == WriterOptions::Mode::kAtomic;
  // Before anything is created: a recorder writes its target directly.
  if (options.header_last && !atomic) return Error{path + ": header_last needs an atomic writer"};
  std::unique_ptr<OutputFile> output;
  std::string write_path = path;
  int fd = -1;
  if (atomic) {
    Result<OutputFile> opened = OutputFile::Open(path, /*binary=*/true);
    if (!opened.ok()) return opened.error();
    output = std::make_unique<OutputFile>(std::move(*opened));
    write_path = output->write_path();
    fd = output->fd();
  } else {
    fd = ::open(write_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Error{Errno("cannot create", write_path)};
  }
  std::unique_ptr<TraceWriter> writer(new TraceWriter(path, std::move(write_path), fd, options));
  writer->output_ = std::move(output);
  if (options.header_last) {
    writer->holding_ = true;
    return writer;
  }
  if (Outcome o = writer->WriteAll(EncodeFileHeader(header)); !o.ok()) return o.error();
  return writer;
}

TraceWriter::~TraceWriter() {
  if (finished_ || fd_ < 0) return;
  if (options_.mode == WriterOptions::Mode::kRecorder && !failed_) {
    (void)Flush();
    CloseFd();
    return;
  }
  Abandon();
}

void TraceWriter::CloseFd() {
  if (output_ != nullptr) {
    output_->Abandon();
  } else if (fd_ >= 0) {
    ::close(fd_);
  }
  fd_ = -1;
}

void TraceWriter::Abandon() { CloseFd(); }

Outcome TraceWriter::Fail(std::string message) {
  failed_ = true;
  Abandon();
  return Error{std::move(message)};
}

Outcome TraceWriter::WriteAll(std::string_view bytes) {
  if (holding_) {
    held_.append(bytes);
    return Outcome::Ok();
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fail(Errno("write failed", write_path_));
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Outcome::Ok();
}

Outcome TraceWriter::Append(const Record& record) {
  if (failed_ || finished_ || fd_ < 0) return Error{path_ + ": writer is closed"};
  const size_t size = record.ByteSizeLong();
  if (size > kMaxRecordBytes) {
    return Error{path_ + ": record " + std::to_string(records_written_) + " is " +
                 std::to_string(size) + " bytes, limit " + std::to_string(kMaxRecordBytes)};
  }
  // Keep every frame within kMaxFrameUncompressedBytes (5 bytes bound the varint prefix).
  if (pending_.size() + size + 5 > kMaxFrameUncompressedBytes) {
    if (Outcome o = Flush(); !o.ok()) return o;
  }
  AppendDelimited(record, size, &pending_);
  ++pending_count_;
  ++records_written_;
  if (pending_count_ >= options_.events_per_frame) return Flush();
  return Outcome::Ok();
}

Outcome TraceWriter::Flush() {
  if (failed_ || finished_ || fd_ < 0) return Error{path_ + ": writer is closed"};
  if (pending_count_ == 0) return Outcome::Ok();
  // The frame is built in one reused buffer: header placeholder, then the payload compressed in
  // place, then the real header (it covers the payload's CRC).
  frame_.assign(kFrameHeaderSize, '\0');
  Result<size_t> payload_size = compressor_->CompressAppend(pending_, &frame_);
  if (!payload_size.ok()) return Fail(path_ + ": " + payload_size.message());
  if (*payload_size > kMaxFrameCompressedBytes) {
    return Fail(path_ + ": compressed frame exceeds the limit");
  }
  const std::string header =
      EncodeFrameHeader(std::string_view(frame_).substr(kFrameHeaderSize),
                        static_cast<uint32_t>(pending_.size()), pending_count_);
  frame_.replace(0, kFrameHeaderSize, header);
  if (Outcome o = WriteAll(frame_); !o.ok()) return o;
  pending_.clear();
  pending_count_ = 0;
  ++frames_written_;
  return Outcome::Ok();
}

Outcome TraceWriter::Finish() {
  if (holding_) return Fail(path_ + ": a header_last writer finishes with FinishWithHeader");
  if (Outcome o = Flush(); !o.ok()) return o;
  if (output_ != nullptr) {
    // fsync, close and rename into place (or only close a FIFO, device or standard output).
    fd_ = -1;
    if (Outcome o = output_->Commit(); !o.ok()) {
      failed_ = true;
      output_->Abandon();
      return o;
    }
    finished_ = true;
    write_path_ = output_->write_path();
    return Outcome::Ok();
  }
  if (::fsync(fd_) != 0) return Fail(Errno("fsync failed", write_path_));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    failed_ = true;
    return Error{Errno("close failed", write_path_)};
  }
  finished_ = true;
  write_path_ = path_;
  return Outcome::Ok();
}

Outcome TraceWriter::FinishWithHeader(Header header) {
  if (!holding_) return Error{path_ + ": FinishWithHeader needs a header_last writer"};
  if (Outcome o = Flush(); !o.ok()) return o;
  if (Outcome ok = PrepareHeader(path_, &header); !ok) return Fail(ok.message());
  holding_ = false;
  if (Outcome o = WriteAll(EncodeFileHeader(header)); !o.ok()) return o;
  if (Outcome o = WriteAll(held_); !o.ok()) return o;
  std::string().swap(held_);
  return Finish();
}

Outcome WriteTrace(const std::string& path, const Trace& trace, WriterOptions options) {
  Result<std::unique_ptr<TraceWriter>> writer = TraceWriter::Open(path, trace.header, options);
  if (!writer.ok()) return writer.error();
  for (const Record& record : trace.records) {
    if (Outcome o = (*writer)->Append(record); !o.ok()) return o;
  }
  return (*writer)->Finish();
}

}  // namespace schedcheck::trace
