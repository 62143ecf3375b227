#include "traces/importers/importer.h"

#include "traces/importers/audit_importer.h"
#include "traces/importers/kss_importer.h"
#include "traces/importers/manifests_importer.h"
#include "traces/importers/openb_importer.h"
#include "traces/importers/watch_importer.h"

namespace schedcheck::trace {
namespace {

// The per-record part of the checks below. Most records are small enough that no limit can be
// exceeded, which ByteSizeLong tells far more cheaply than a walk over every field.
Outcome CheckRecord(const std::string& where, const Record& r, int64_t index,
                    const InputLimits& limits) {
  if (FitsTrivially(r, r.ByteSizeLong(), limits)) return Outcome::Ok();
  return CheckMessageLimits(r, limits, where + ": record " + std::to_string(index));
}

// The importers check each object against options.limits where they know its file and line; this
// last pass also covers what they produce without one (openb rows, observed bindings).
Outcome CheckImported(const std::string& format, const Imported& imported,
                      const InputLimits& limits) {
  const std::string where = "import --from " + format;
  if (static_cast<int64_t>(imported.records.size()) > limits.records)
    return TooManyRecords(where, limits.records);
  for (size_t i = 0; i < imported.records.size(); ++i) {
    if (Outcome ok = CheckRecord(where, imported.records[i], i, limits); !ok) return ok;
  }
  return Outcome::Ok();
}

// CheckImported for records that stream past (`index` counts them).
Outcome CheckStreamed(const std::string& format, const Record& r, int64_t index,
                      const InputLimits& limits) {
  const std::string where = "import --from " + format;
  if (index >= limits.records) return TooManyRecords(where, limits.records);
  return CheckRecord(where, r, index, limits);
}

Result<Imported> ImportFormat(const std::string& format, const std::vector<std::string>& inputs,
                              const ImportOptions& options, const RecordSink& sink) {
  if (format == "manifests") return ImportManifests(inputs, options);
  if (format == "watch") return ImportWatch(inputs, options, sink);
  if (format == "kss") return ImportKss(inputs, options, sink);
  if (format == "audit") return ImportAudit(inputs, options, sink);
  if (format == "openb") return ImportOpenb(inputs, options);
  return Error{"--from: unknown format \"" + format +
               "\" (want manifests, watch, kss, audit or openb)"};
}

}  // namespace

const std::vector<std::string>& ImportFormats() {
  static const std::vector<std::string> kFormats = {"manifests", "watch", "kss", "audit", "openb"};
  return kFormats;
}

Result<Imported> Import(const std::string& format, const std::vector<std::string>& inputs,
                        const ImportOptions& options, const RecordSink& sink) {
  if (inputs.empty()) return Error{"no inputs"};
  bool openb = format == "openb";
  if (!openb && (options.arrival_only || options.shuffle_seed || options.target_gpu_share)) {
    return Error{
        "--arrival-only, --shuffle-seed and --target-gpu-share apply to --from openb only"};
  }
  int64_t streamed = 0;
  RecordSink checked;
  if (sink) {
    checked = [&](Record&& r) {
      if (Outcome ok = CheckStreamed(format, r, streamed++, options.limits); !ok) return ok;
      return sink(std::move(r));
    };
  }
  Result<Imported> imported = ImportFormat(format, inputs, options, checked);
  if (!imported.ok()) return imported;
  if (!sink) {
    if (Outcome ok = CheckImported(format, *imported, options.limits); !ok) return ok.error();
    return imported;
  }
  // Importers that do not stream hand their records over now, checked as they go like the
  // streamed ones (and counted after them).
  for (Record& r : imported->records) {
    if (Outcome ok = checked(std::move(r)); !ok) return ok.error();
  }
  imported->records.clear();
  return imported;
}

}  // namespace schedcheck::trace
