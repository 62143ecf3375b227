// FrameParser: parses the records of a decompressed frame on several threads, handing them out
// in order. TraceReader uses it for NextBorrowed when opened with ReaderOptions::parse_threads > 1.
//
// The frame's records are cut into batches of kBatchRecords. Batches are claimed in order, each
// by whichever thread gets to it first: the workers claim ahead of the caller, at most kWindow
// batches past the one the caller is reading; the caller parses its next batch itself if no
// worker has claimed it yet, and otherwise waits for that worker. So on an idle machine the
// threads share the work, and on a busy one (a worker not scheduled) the caller does not stall
// behind it. Batch b lives in slot b % kWindow, an arena reset and refilled while still warm in
// cache, so memory stays bounded. Which thread parses a record has no effect on the result.
// Not thread-safe (one caller).
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
  static constexpr size_t kSlotsPerThread = 4;  // the window: kSlotsPerThread * threads batches

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
  class Batch;  // an arena and the records of one batch parsed into it

  void WorkerLoop();
  // Waits (holding `lock`) until no worker is parsing, then moves everyone to a new frame
  // (`frame` nullptr: none).
  void BeginGeneration(std::unique_lock<std::mutex>& lock, const char* frame,
                       const std::vector<RecordSpan>* spans);

  const size_t window_;  // slots: batches claimed but not yet read past, at most
  std::vector<std::unique_ptr<Batch>> slots_;
  size_t current_batch_ = SIZE_MAX;  // the batch Get last returned from (caller only)

  // Shared with the workers, under mu_.
  std::mutex mu_;
  std::condition_variable to_workers_;  // new frame, slot freed, or stopping
  std::condition_variable to_caller_;   // a batch parsed, or a worker went idle
  const char* frame_ = nullptr;
  const std::vector<RecordSpan>* spans_ = nullptr;
  size_t next_claim_ = 0;  // batches [0, next_claim_) are claimed
  size_t reading_ = 0;     // the caller has read past batches [0, reading_)
  std::vector<size_t> parsed_;  // parsed_[slot]: the batch parsed into it (SIZE_MAX: none yet)
  size_t parsing_ = 0;     // workers parsing outside the lock
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // last: started once everything else is set up
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_FRAME_PARSER_H_
