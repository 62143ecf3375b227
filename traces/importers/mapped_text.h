// A file's bytes for one pass of parsing. A regular file is mapped read-only, so that the pages
// already parsed can be given back (Release) and a 450 MiB watch capture is never resident whole
// beside the million objects decoded from it; anything else (a pipe) is read into memory.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_MAPPED_TEXT_H_
#define SCHEDCHECK_TRACES_IMPORTERS_MAPPED_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::trace {

class MappedText {
 public:
  // "F: cannot open file" when it cannot be opened or read.
  static Result<MappedText> Open(const std::string& path);

  MappedText(MappedText&& other) noexcept;
  MappedText& operator=(MappedText&& other) noexcept;
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;
  ~MappedText();

  std::string_view text() const { return {data_, size_}; }

  // The parse will not read before `offset` again (except to place an error message): whole
  // pages before it leave memory, at most once per kReleaseStep bytes. Reading them afterwards
  // still works (they come back from the file). No-op for text read into memory.
  void Release(size_t offset);
  static constexpr size_t kReleaseStep = size_t{32} << 20;

 private:
  MappedText() = default;
  const char* data_ = "";
  size_t size_ = 0;
  bool mapped_ = false;
  size_t released_ = 0;  // bytes from the start already given back
  std::string owned_;    // the bytes when not mapped
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_MAPPED_TEXT_H_
