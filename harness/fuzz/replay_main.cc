// The main() of a fuzz target outside libFuzzer (gcc builds, `bazel test`): runs every file given,
// or every file under every folder given (sorted), through LLVMFuzzerTestOneInput once. With
// --require-inputs it fails when no input at all was found (a lost corpus is not a pass). Prints
// one line per input that took more than a second, and a last line "N inputs in S s".
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  bool require = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--require-inputs") {
      require = true;
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<std::string> in_dir;
      for (const auto& entry : fs::recursive_directory_iterator(arg, ec)) {
        if (entry.is_regular_file()) in_dir.push_back(entry.path().string());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::exists(arg, ec)) {
      files.push_back(arg);
    }  // a missing folder (no regressions yet) is no input, not an error
  }
  if (require && files.empty()) {
    std::fprintf(stderr, "no fuzz inputs found in the given folders\n");
    return 1;
  }
  auto start = std::chrono::steady_clock::now();
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "running %s (%zu bytes)\n", file.c_str(), bytes.size());
    auto t0 = std::chrono::steady_clock::now();
    // A copy in a buffer of exactly the input's size, so that ASan sees reads past the end.
    std::vector<uint8_t> copy(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 1.0) std::fprintf(stderr, "slow input: %s took %.1f s\n", file.c_str(), s);
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu inputs in %.2f s\n", files.size(), total);
  return 0;
}
