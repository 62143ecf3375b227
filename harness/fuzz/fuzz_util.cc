#include "harness/fuzz/fuzz_util.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

namespace schedcheck::fuzz {

const std::string& TempDir() {
  static const std::string dir = [] {
    namespace fs = std::filesystem;
    std::string root;
    if (const char* t = std::getenv("TEST_TMPDIR"); t && *t)
      root = t;
    else if (fs::is_directory("/dev/shm"))
      root = "/dev/shm";
    else
      root = "/tmp";
    std::string d = root + "/schedcheck-fuzz-" + std::to_string(getpid());
    std::error_code ec;
    fs::create_directories(d, ec);
    if (ec) {
      std::fprintf(stderr, "cannot create %s: %s\n", d.c_str(), ec.message().c_str());
      std::abort();
    }
    // Removed at exit (a crash leaves it behind; it is small).
    static std::string to_remove = d;
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(to_remove, ignored);
    });
    return d;
  }();
  return dir;
}

std::string WriteInput(const std::string& name, std::string_view bytes) {
  std::string path = TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

int InputFd(std::string_view bytes) {
  int fd = memfd_create("fuzz-input", 0);
  if (fd < 0) std::abort();
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

std::pair<std::string_view, std::string_view> SplitAt(std::string_view bytes,
                                                      std::string_view separator) {
  size_t at = bytes.find(separator);
  if (at == std::string_view::npos) return {bytes, {}};
  return {bytes.substr(0, at), bytes.substr(at + separator.size())};
}

}  // namespace schedcheck::fuzz
