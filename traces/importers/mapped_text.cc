#include "traces/importers/mapped_text.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <utility>

namespace schedcheck::trace {

Result<MappedText> MappedText::Open(const std::string& path) {
  MappedText out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open file"};
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      close(fd);
      madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
      out.data_ = static_cast<const char*>(p);
      out.size_ = static_cast<size_t>(st.st_size);
      out.mapped_ = true;
      return out;
    }
  }
  close(fd);
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Error{path + ": cannot read file"};
  out.owned_ = std::move(buffer).str();
  out.data_ = out.owned_.data();
  out.size_ = out.owned_.size();
  return out;
}

MappedText::MappedText(MappedText&& other) noexcept { *this = std::move(other); }

MappedText& MappedText::operator=(MappedText&& other) noexcept {
  if (this == &other) return *this;
  if (mapped_) munmap(const_cast<char*>(data_), size_);
  mapped_ = std::exchange(other.mapped_, false);
  size_ = std::exchange(other.size_, 0);
  released_ = std::exchange(other.released_, 0);
  owned_ = std::move(other.owned_);
  data_ = mapped_ ? std::exchange(other.data_, "") : owned_.data();
  other.data_ = "";
  return *this;
}

MappedText::~MappedText() {
  if (mapped_) munmap(const_cast<char*>(data_), size_);
}

void MappedText::Release(size_t offset) {
  if (!mapped_ || offset > size_ || offset < released_ + kReleaseStep) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t end = offset / page * page;  // data_ is page-aligned
  madvise(const_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

}  // namespace schedcheck::trace
