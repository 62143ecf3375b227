// Time for the reference: only ever read through a Clock, which replay drives virtually.
#ifndef SCHEDCHECK_REFERENCE_BASE_CLOCK_H_
#define SCHEDCHECK_REFERENCE_BASE_CLOCK_H_

#include <cstdint>

namespace schedcheck {

inline constexpr int64_t kNanosPerSecond = 1000 * 1000 * 1000;

class Clock {
 public:
  virtual ~Clock() = default;
  // Nanoseconds since the trace (or test) start.
  virtual int64_t NowNs() const = 0;
};

// A clock that moves only when told to: replay's virtual time, and tests.
class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(int64_t start_ns = 0) : now_ns_(start_ns) {}
  int64_t NowNs() const override { return now_ns_; }
  // REQUIRES: ns >= NowNs() (time never goes backwards).
  void SetNs(int64_t ns) { now_ns_ = ns; }
  void AdvanceNs(int64_t delta_ns) { now_ns_ += delta_ns; }

 private:
  int64_t now_ns_;
};

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_CLOCK_H_
