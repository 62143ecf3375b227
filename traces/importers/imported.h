// What every importer produces (API event records plus observed decisions, labels saying what was
// dropped, warnings) and the shared last steps: stable time sort, resourceVersion assignment,
// unknown-node flags, the trace header, the atomic write. Used by the importers in this folder and
// by `schedcheck import` (harness/cli/import_command.h). See traces/importers/README.md.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_IMPORTED_H_
#define SCHEDCHECK_TRACES_IMPORTERS_IMPORTED_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {

struct ImportOptions {
  // Annotation keys kept (exact match); every other annotation is dropped.
  std::vector<std::string> keep_annotations;
  // The instant t = 0 stands for. manifests / openb: default 1970-01-01T00:00:00Z. watch / kss:
  // default the earliest event; when given it must not be after the earliest event.
  std::optional<int64_t> start_unix_ns;
  // watch / kss: observed bindings become Binding records only (see README.md).
  bool strip_bindings = true;
  // openb: the FGD paper's protocol options.
  bool arrival_only = false;
  std::optional<uint64_t> shuffle_seed;
  std::optional<double> target_gpu_share;
  // Objects per import, string, key and map sizes (--limit); every importer checks each object.
  InputLimits limits;
};

// Where an importer that can stream puts its finished records, in trace order, instead of into
// Imported::records (`schedcheck import` writes them as they come).
using RecordSink = std::function<Outcome(Record&&)>;

struct Imported {
  // Until Finalize: time_ns holds absolute Unix nanoseconds. After: relative to t = 0, sorted.
  std::vector<Record> records;
  std::map<std::string, std::string> labels;  // go into the header (e.g. "redacted.annotations")
  std::vector<std::string> warnings;          // printed on stderr by the command
  uint64_t seed = 0;                          // header seed (openb shuffle / resample)
  // The header's compatibility level: what the capture's server version says (watch: a
  // `kubectl version -o json` object among the inputs), else "" (kCompatLevel); `import
  // --compat` overrides it.
  std::string compat;
  std::string compat_source;  // what set `compat`, for the command's summary
  int64_t start_unix_ns = 0;  // set by Finalize
};

// Adds `n` to the integer-valued label `key` (absent = 0).
void AddToLabel(Imported* imported, const std::string& key, int64_t n);
// "a=1,b=2" from a map (sorted by key, deterministic).
std::string JoinCounts(const std::map<std::string, int64_t>& counts);

// Sorts records stably by time, chooses t = 0 (options.start_unix_ns, else the earliest record,
// else 0), makes times relative, gives objects without metadata.resourceVersion increasing ones
// in event order, flags pods bound to nodes that never appear, and sets the `start_time` label.
// Fails when start_unix_ns is after the earliest record.
Outcome Finalize(std::optional<int64_t> start_unix_ns, Imported* imported);

// Finalize one record at a time, for an importer that writes records as it finishes them
// (already in time order: Finalize's sort would change nothing). Finalize is this over the
// sorted records, so both give the same records, labels and warnings.
class Finalizer {
 public:
  // Chooses t = 0 from `start_unix_ns` and the earliest record's time (none: no records); fails
  // as Finalize does when start_unix_ns is after it.
  static Result<Finalizer> Start(std::optional<int64_t> start_unix_ns,
                                 std::optional<int64_t> earliest_ns);
  // Makes the time relative and gives the object a resourceVersion if it has none.
  Outcome Next(Record* record);
  // After the last record: the labels and warnings Finalize adds, and start_unix_ns.
  void End(Imported* imported);

 private:
  Finalizer() = default;
  int64_t start_ = 0;
  int64_t next_rv_ = 1;
  std::set<std::string> nodes_;  // every Node record's name
  // Each (pod, node) a pod record names, in order of first appearance (for the unknown-node
  // warnings, which need every Node first).
  std::vector<std::pair<std::string, std::string>> bound_;
  std::set<std::pair<std::string, std::string>> bound_seen_;
};

// The header: producer "schedcheck import --from FORMAT", compat (imported.compat, else 1.27),
// seed, labels.
Header MakeImportHeader(const std::string& format, const Imported& imported);

// Writes the trace atomically (a temporary file renamed at the end; nothing on failure).
Outcome WriteImported(const std::string& path, const std::string& format, const Imported& imported);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_IMPORTED_H_
