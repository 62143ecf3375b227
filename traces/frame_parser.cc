#include "traces/frame_parser.h"

#include <algorithm>
#include <optional>

#include "google/protobuf/arena.h"

namespace schedcheck::trace {

// The records of one batch and the arena they live in. The arena's first block is ours, so
// Arena::Reset keeps it (other blocks are freed); it grows to what the last batch needed, so in
// a steady state a batch is parsed without malloc for message objects.
class FrameParser::Batch {
 public:
  // Destroys the previous records and parses spans[begin, end) of `frame`. The arena is reset
  // by the thread that then allocates from it (protobuf's fast path per thread).
  void Parse(const char* frame, const std::vector<RecordSpan>& spans, size_t begin, size_t end) {
    PrepareArena();
    records_.clear();
    for (size_t i = begin; i < end; ++i) {
      Record* record = google::protobuf::Arena::CreateMessage<Record>(&*arena_);
      const bool ok =
          record->ParseFromArray(frame + spans[i].offset, static_cast<int>(spans[i].size));
      records_.push_back(ok ? record : nullptr);
    }
  }

  const Record* record(size_t i) const { return records_[i]; }

 private:
  static constexpr size_t kMinBlockBytes = 128 << 10;

  void PrepareArena() {
    if (arena_.has_value()) {
      const size_t used = arena_->SpaceAllocated();
      if (used <= block_size_) {
        arena_->Reset();
        return;
      }
      arena_.reset();
      block_size_ = used + used / 4;
    } else {
      block_size_ = kMinBlockBytes;
    }
    block_.reset(new char[block_size_]);
    google::protobuf::ArenaOptions options;
    options.initial_block = block_.get();
    options.initial_block_size = block_size_;
    arena_.emplace(options);
  }

  std::vector<const Record*> records_;
  std::unique_ptr<char[]> block_;  // declared before arena_: outlives it
  size_t block_size_ = 0;
  std::optional<google::protobuf::Arena> arena_;
};

FrameParser::FrameParser(int threads)
    : window_(kSlotsPerThread * static_cast<size_t>(std::max(threads, 1))),
      parsed_(window_, SIZE_MAX) {
  for (size_t i = 0; i < window_; ++i) slots_.push_back(std::make_unique<Batch>());
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { WorkerLoop(); });
}

FrameParser::~FrameParser() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  to_workers_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void FrameParser::BeginGeneration(std::unique_lock<std::mutex>& lock, const char* frame,
                                  const std::vector<RecordSpan>* spans) {
  to_caller_.wait(lock, [this] { return parsing_ == 0; });
  frame_ = frame;
  spans_ = spans;
  next_claim_ = 0;
  reading_ = 0;
  std::fill(parsed_.begin(), parsed_.end(), SIZE_MAX);
  current_batch_ = SIZE_MAX;
}

void FrameParser::Start(const char* frame, const std::vector<RecordSpan>* spans) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    BeginGeneration(lock, frame, spans);
  }
  to_workers_.notify_all();
}

void FrameParser::Stop() {
  std::unique_lock<std::mutex> lock(mu_);
  BeginGeneration(lock, nullptr, nullptr);
}

const Record* FrameParser::Get(size_t i) {
  const size_t batch = i / kBatchRecords;
  Batch& slot = *slots_[batch % window_];
  if (batch != current_batch_) {
    std::unique_lock<std::mutex> lock(mu_);
    // Calls come in order: the batches before this one are done with, their slots free. Wake
    // the workers only once half the window is free, so that each wake-up buys several batches.
    reading_ = batch;
    const bool wake = next_claim_ <= reading_ + window_ / 2;
    if (next_claim_ == batch) {  // nobody has it yet: parse it here
      ++next_claim_;
      lock.unlock();
      if (wake) to_workers_.notify_all();
      const size_t begin = batch * kBatchRecords;
      slot.Parse(frame_, *spans_, begin, std::min(begin + kBatchRecords, spans_->size()));
    } else {  // a worker claimed it: wait until it is parsed
      if (wake) to_workers_.notify_all();
      to_caller_.wait(lock, [&] { return parsed_[batch % window_] == batch; });
    }
    current_batch_ = batch;
  }
  return slot.record(i - batch * kBatchRecords);
}

void FrameParser::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    to_workers_.wait(lock, [this] {
      return stopping_ || (frame_ != nullptr && next_claim_ * kBatchRecords < spans_->size() &&
                           next_claim_ < reading_ + window_);
    });
    // (A worker that finds the window full sleeps until the caller has read half of it.)
    if (stopping_) return;
    const size_t batch = next_claim_++;
    const char* frame = frame_;
    const std::vector<RecordSpan>& spans = *spans_;
    ++parsing_;
    lock.unlock();
    const size_t begin = batch * kBatchRecords;
    slots_[batch % window_]->Parse(frame, spans, begin, std::min(begin + kBatchRecords, spans.size()));
    lock.lock();
    --parsing_;
    parsed_[batch % window_] = batch;
    to_caller_.notify_all();  // the caller may wait for this batch, or for parsing_ == 0
  }
}

}  // namespace schedcheck::trace
