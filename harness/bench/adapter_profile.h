// Where an out-of-process scheduler's time went during a campaign: the adapters add it up
// (harness/kube/common/profile) when the environment variable SCHEDCHECK_ADAPTER_PROFILE names a
// file, and write it there, one JSON object, when their input ends. The bench reads it back and
// prints each phase's share. Wall-clock figures of the bench only: nothing here reaches a
// decision log. A child that writes no profile (`schedcheck serve`, an exec: build of another
// kind) simply has none.
#ifndef SCHEDCHECK_HARNESS_BENCH_ADAPTER_PROFILE_H_
#define SCHEDCHECK_HARNESS_BENCH_ADAPTER_PROFILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "reference/base/result.h"

namespace schedcheck::bench {

inline constexpr char kAdapterProfileEnv[] = "SCHEDCHECK_ADAPTER_PROFILE";

// Seconds per phase, as the adapter measured them.
struct AdapterProfile {
  std::string label;   // the child it came from ("kube 1.37", "candidate kube:1.27")
  int64_t runs = 0;    // replays (Hellos) the process served
  double startup = 0;  // process start to serving: the Go runtime and every package's init
  double wait = 0;     // blocked for the next request: the harness's turn (the other side's too)
  double decode = 0;   // request frames read and unmarshalled
  double hello = 0;    // Hello: configuration, scheduler.New, informers
  double feed = 0;     // trace events into the informers (conversion, store, handlers)
  double events = 0;   // Events requests, feed included
  double finish = 0;   // Finish requests: the last instants up to the horizon
  double encode = 0;   // answers marshalled
  double send = 0;     // answers written and flushed
  double process_cpu = 0;  // the process's CPU seconds (user and system, from the kernel)
  double cpu = 0;          // the Go runtime's estimate of CPU seconds in user Go code
  double gc_cpu = 0;       // and in garbage collection

  // Upstream's own work: its queue, cycles, flushes and bindings (Events and Finish, less feed).
  double Scheduling() const { return events + finish - feed; }
  double Framing() const { return decode + encode + send; }
  // Everything the process did itself (not waiting).
  double Busy() const { return startup + hello + events + finish + Framing(); }
};

// Parses the profile file `path` (the label is left empty). Errors name the file and the field.
Result<AdapterProfile> ReadAdapterProfile(const std::string& path);

// `command` run with the profile written to `path` (an environment assignment before it).
std::string WithProfile(const std::string& command, const std::string& path);

// A fresh file name for a child's profile: /tmp/schedcheck-bench-<pid>-profile-<n>.json.
std::string NewProfilePath();

// The shares table: per child with a profile, milliseconds per trace and the share of its busy
// time of each phase; `traces` is the campaign's length. Empty when there is no profile.
std::string FormatShares(const std::vector<AdapterProfile>& profiles, int traces);
nlohmann::json ProfileToJson(const AdapterProfile& p);

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_ADAPTER_PROFILE_H_
