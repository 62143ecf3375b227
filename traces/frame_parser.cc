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
  // Destroys the previous records and parses spans[begin, end) of `frame`.
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

struct FrameParser::Worker {
  size_t index = 0;  // owns batches index, index + threads, index + 2 * threads, ...
  std::unique_ptr<Batch> slots[kSlots];  // its j-th batch goes to slots[j % kSlots]
  size_t parsed = 0;    // its batches of the current frame parsed so far (under mu_)
  size_t consumed = 0;  // its batches the caller has moved past (under mu_)
  std::thread thread;
};

FrameParser::FrameParser(int threads)
    : threads_(static_cast<size_t>(std::max(threads, 1))), own_(std::make_unique<Batch>()) {
  for (size_t w = 1; w < threads_; ++w) {
    auto worker = std::make_unique<Worker>();
    worker->index = w;
    for (auto& slot : worker->slots) slot = std::make_unique<Batch>();
    workers_.push_back(std::move(worker));
  }
  // Started only once workers_ is complete: the threads read it.
  for (size_t w = 0; w < workers_.size(); ++w) {
    workers_[w]->thread = std::thread([this, w] { WorkerLoop(w); });
  }
}

FrameParser::~FrameParser() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  to_workers_.notify_all();
  for (auto& worker : workers_) worker->thread.join();
}

void FrameParser::BeginGeneration(std::unique_lock<std::mutex>& lock, const char* frame,
                                  const std::vector<RecordSpan>* spans) {
  to_caller_.wait(lock, [this] { return parsing_ == 0; });
  for (auto& worker : workers_) worker->parsed = worker->consumed = 0;
  frame_ = frame;
  spans_ = spans;
  ++generation_;
  current_batch_ = SIZE_MAX;
  current_ = nullptr;
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
  if (batch != current_batch_) {
    const size_t owner = batch % threads_;
    const size_t begin = batch * kBatchRecords;
    std::unique_lock<std::mutex> lock(mu_);
    // Calls come in order, so every batch before this one is done with: free the workers' slots.
    for (auto& worker : workers_) {
      const size_t before = (batch + threads_ - 1 - worker->index) / threads_;  // its batches < batch
      if (worker->consumed < before) {
        worker->consumed = before;
        to_workers_.notify_all();
      }
    }
    if (owner == 0) {
      lock.unlock();
      own_->Parse(frame_, *spans_, begin, std::min(begin + kBatchRecords, spans_->size()));
      current_ = own_.get();
    } else {
      Worker& worker = *workers_[owner - 1];
      const size_t j = batch / threads_;  // the worker's j-th batch
      to_caller_.wait(lock, [&] { return worker.parsed > j; });
      current_ = worker.slots[j % kSlots].get();
    }
    current_batch_ = batch;
  }
  return current_->record(i - batch * kBatchRecords);
}

void FrameParser::WorkerLoop(size_t w) {
  Worker& me = *workers_[w];
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    size_t batch = 0;
    const auto has_work = [&] {
      if (frame_ == nullptr || me.parsed - me.consumed >= kSlots) return false;
      batch = me.index + me.parsed * threads_;
      return batch * kBatchRecords < spans_->size();
    };
    to_workers_.wait(lock, [&] { return stopping_ || has_work(); });
    if (stopping_) return;
    const uint64_t generation = generation_;
    const char* frame = frame_;
    const std::vector<RecordSpan>& spans = *spans_;
    Batch& slot = *me.slots[me.parsed % kSlots];
    ++parsing_;
    lock.unlock();
    const size_t begin = batch * kBatchRecords;
    slot.Parse(frame, spans, begin, std::min(begin + kBatchRecords, spans.size()));
    lock.lock();
    --parsing_;
    if (generation == generation_) ++me.parsed;
    to_caller_.notify_all();  // the caller may wait for this batch, or for parsing_ == 0
  }
}

}  // namespace schedcheck::trace
