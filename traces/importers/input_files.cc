#include "traces/importers/input_files.h"

#include "reference/base/input_files.h"

namespace schedcheck::trace {

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& paths,
                                              const std::vector<std::string>& extensions) {
  auto files = ListInputFiles(paths, extensions);
  if (!files.ok()) return files.error();
  if (files->empty()) return Error{"no input files found"};
  return files;
}

}  // namespace schedcheck::trace
