// One entry point over the importers of this folder: `schedcheck import --from FORMAT`.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

// "manifests", "watch", "kss", "openb".
const std::vector<std::string>& ImportFormats();

// Reads `inputs` in `format`; the result is finalized (sorted, relative times, labels).
Result<Imported> Import(const std::string& format, const std::vector<std::string>& inputs,
                        const ImportOptions& options);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_IMPORTER_H_
