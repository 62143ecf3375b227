#include "reference/base/input_files.h"

#include <algorithm>
#include <filesystem>

namespace schedcheck {

Result<std::vector<std::string>> ListInputFiles(const std::vector<std::string>& paths,
                                                const std::vector<std::string>& extensions) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
        std::string ext = entry.path().extension().string();
        bool wanted = extensions.empty() ||
                      std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
        if (entry.is_regular_file() && wanted) found.push_back(entry.path().string());
      }
      if (ec) return Error{path + ": cannot list folder: " + ec.message()};
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, ec)) {
      files.push_back(path);
    } else {
      return Error{path + ": no such file or directory"};
    }
  }
  return files;
}

}  // namespace schedcheck
