// Expands file arguments: files as given, folders searched recursively (regular files in name
// order, optionally only some extensions). Shared by the case loader, the manifests loader and the
// importers.
#ifndef SCHEDCHECK_REFERENCE_BASE_INPUT_FILES_H_
#define SCHEDCHECK_REFERENCE_BASE_INPUT_FILES_H_

#include <string>
#include <vector>

#include "reference/base/result.h"

namespace schedcheck {

// `extensions` such as {".yaml", ".json"}; empty = every file inside folders. Files named
// explicitly are always taken. Fails on a missing path or an unreadable folder; may be empty.
Result<std::vector<std::string>> ListInputFiles(const std::vector<std::string>& paths,
                                                const std::vector<std::string>& extensions);

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_INPUT_FILES_H_
