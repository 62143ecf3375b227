// Helpers shared by the fuzz targets: the parsers under test read files (by path, with the file
// name's extension choosing the format) or file descriptors, so each input is written to a file
// of this process's own temporary folder first.
#ifndef SCHEDCHECK_HARNESS_FUZZ_FUZZ_UTIL_H_
#define SCHEDCHECK_HARNESS_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace schedcheck::fuzz {

// A folder private to this process ($TEST_TMPDIR, else /dev/shm or /tmp), created once.
const std::string& TempDir();

// Writes `bytes` to TempDir()/`name` (replacing it) and returns the path. Aborts if it cannot.
std::string WriteInput(const std::string& name, std::string_view bytes);

// A file descriptor reading `bytes` from the start (a memfd); the caller closes it.
int InputFd(std::string_view bytes);

inline std::string_view Bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits `bytes` at the first occurrence of `separator` (the second part is empty without one).
std::pair<std::string_view, std::string_view> SplitAt(std::string_view bytes,
                                                      std::string_view separator);

}  // namespace schedcheck::fuzz

#endif  // SCHEDCHECK_HARNESS_FUZZ_FUZZ_UTIL_H_
