#include "traces/importers/importer.h"

#include "traces/importers/kss_importer.h"
#include "traces/importers/manifests_importer.h"
#include "traces/importers/openb_importer.h"
#include "traces/importers/watch_importer.h"

namespace schedcheck::trace {

const std::vector<std::string>& ImportFormats() {
  static const std::vector<std::string> kFormats = {"manifests", "watch", "kss", "openb"};
  return kFormats;
}

Result<Imported> Import(const std::string& format, const std::vector<std::string>& inputs,
                        const ImportOptions& options) {
  if (inputs.empty()) return Error{"no inputs"};
  bool openb = format == "openb";
  if (!openb && (options.arrival_only || options.shuffle_seed || options.target_gpu_share)) {
    return Error{"--arrival-only, --shuffle-seed and --target-gpu-share apply to --from openb only"};
  }
  if (format == "manifests") return ImportManifests(inputs, options);
  if (format == "watch") return ImportWatch(inputs, options);
  if (format == "kss") return ImportKss(inputs, options);
  if (openb) return ImportOpenb(inputs, options);
  return Error{"--from: unknown format \"" + format + "\" (want manifests, watch, kss or openb)"};
}

}  // namespace schedcheck::trace
