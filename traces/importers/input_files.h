// Expands the INPUT... arguments of `schedcheck import`: files as given, folders recursively
// (regular files in name order, optionally only some extensions).
#ifndef SCHEDCHECK_TRACES_IMPORTERS_INPUT_FILES_H_
#define SCHEDCHECK_TRACES_IMPORTERS_INPUT_FILES_H_

#include <string>
#include <vector>

#include "reference/base/result.h"

namespace schedcheck::trace {

// `extensions` such as {".yaml", ".json"}; empty = every file inside folders. Files named
// explicitly are always taken. Fails on a missing path or when nothing is found.
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& paths,
                                              const std::vector<std::string>& extensions);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_INPUT_FILES_H_
