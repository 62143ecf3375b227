// FrameParser: parses the records of a decompressed frame on several threads, handing them out
// in order. TraceReader uses it for NextBorrowed when opened with ReaderOptions::parse_threads > 1.
//
// The frame's records are cut into batches of kBatchRecords. With T threads, batch b belongs to
// thread b % T: thread 0 is the caller, which parses its batches when it reaches them; each
// worker parses its batches ahead, into a ring of kSlots arenas, and waits for the caller to
// move past a batch before reusing its slot. So memory stays bounded (a few arenas per thread)
// and each arena is reset and refilled while still warm in cache. Which thread parses a record
// has no effect on the result. Not thread-safe (one caller).
#ifndef SCHEDCHECK_TRACES_FRAME_PARSER_H_
#define SCHEDCHECK_TRACES_FRAME_PARSER_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::trace {

// Where one record's bytes are in the decompressed frame (after its length prefix).
struct RecordSpan {
  uint32_t offset = 0;
  uint32_t size = 0;
};

class FrameParser {
 public:
  static constexpr size_t kBatchRecords = 64;
  static constexpr size_t kSlots = 3;  // batches a worker may have parsed ahead

  // threads >= 1: the caller plus threads - 1 workers, started here.
  explicit FrameParser(int threads);
  ~FrameParser();
  FrameParser(const FrameParser&) = delete;
  FrameParser& operator=(const FrameParser&) = delete;

  // Starts on a new frame: record i is spans[i] of `frame`. Both must stay unchanged until the
  // next Start or Stop. Records of the previous frame become invalid.
  void Start(const char* frame, const std::vector<RecordSpan>* spans);

  // Record i of the frame, or nullptr when its bytes do not parse. Calls must ask for 0, 1, 2, ...
  // in order; the record stays valid until the next call to Get, Start or Stop.
  const Record* Get(size_t i);

  // Abandons the frame: returns once no worker reads it any more.
  void Stop();

 private:
  class Batch;   // an arena and the records of one batch parsed into it
  struct Worker;

  void WorkerLoop(size_t w);
  // Waits (holding `lock`) until no worker is parsing, then moves every worker to a new frame
  // (`frame` nullptr: none).
  void BeginGeneration(std::unique_lock<std::mutex>& lock, const char* frame,
                       const std::vector<RecordSpan>* spans);

  const size_t threads_;
  std::unique_ptr<Batch> own_;  // the caller's batches
  size_t current_batch_ = SIZE_MAX;  // the batch Get last returned from
  const Batch* current_ = nullptr;

  // Shared with the workers, under mu_.
  std::mutex mu_;
  std::condition_variable to_workers_;  // new frame, slot freed, or stopping
  std::condition_variable to_caller_;   // a batch parsed, or a worker went idle
  const char* frame_ = nullptr;
  const std::vector<RecordSpan>* spans_ = nullptr;
  uint64_t generation_ = 0;
  size_t parsing_ = 0;  // workers parsing outside the lock
  bool stopping_ = false;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_FRAME_PARSER_H_
