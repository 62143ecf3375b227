// One entry point over the importers of this folder: `schedcheck import --from FORMAT`.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

// "manifests", "watch", "kss", "audit", "openb".
const std::vector<std::string>& ImportFormats();

// Reads `inputs` in `format`; the result is finalized (sorted, relative times, labels). With a
// `sink`, the finished records go there in trace order (watch and kss captures as they are
// finished, never all parsed at once; other formats at the end) and the result has none; its
// labels and warnings are complete when Import returns.
Result<Imported> Import(const std::string& format, const std::vector<std::string>& inputs,
                        const ImportOptions& options, const RecordSink& sink = nullptr);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_
