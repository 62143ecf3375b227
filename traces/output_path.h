// Where an output named on the command line (replay -o / --jsonl, import -o, trace convert OUT,
// generate, report, diff --junit, ...) is written, and how. A regular file (or a new name) is
// replaced atomically: written to "<file>.tmp.<pid>" beside it, then renamed onto it. Anything else
// is written in place, never replaced:
//   - a FIFO, character device or socket (/dev/null, a pipe): opened and written directly; the
//     atomic rename used to replace such nodes by regular files (as root, /dev/null itself);
//   - a symlink: followed to the file it names, which is replaced, so the link survives;
//   - "-": standard output.
// CheckOutputsDistinct refuses an output that is also an input, or named for two outputs.
#ifndef SCHEDCHECK_TRACES_OUTPUT_PATH_H_
#define SCHEDCHECK_TRACES_OUTPUT_PATH_H_

#include <string>
#include <vector>

#include "reference/base/result.h"

namespace schedcheck::trace {

struct OutputTarget {
  enum class Kind {
    kReplace,  // a regular file or a new name: temporary file, then rename onto `path`
    kDirect,   // an existing FIFO, device or socket: open `path` and write
    kStdout,   // "-"
  };
  Kind kind = Kind::kReplace;
  // kReplace: the file to replace (symlinks resolved); kDirect: the node; kStdout: "-".
  std::string path;
};

// Resolves `path` (symlinks followed, a dangling one to the file it would create). Errors name
// the path: a symlink loop, a path that cannot be examined.
Result<OutputTarget> ResolveOutput(const std::string& path);

// An open output: write to fd(), then Commit() (kReplace: fsync, close, rename into place; else
// close). Destroying it uncommitted closes it and removes the temporary file, if any.
class OutputFile {
 public:
  // `path` as given by the user (messages name it). `binary`: the bytes are a binary trace, which
  // is refused on standard output when that is a terminal.
  static Result<OutputFile> Open(const std::string& path, bool binary);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  ~OutputFile();

  int fd() const { return fd_; }
  const OutputTarget& target() const { return target_; }
  // Where the bytes go now: the temporary file (kReplace) or the target.
  const std::string& write_path() const { return write_path_; }

  Outcome WriteAll(std::string_view bytes);
  Outcome Commit();
  // Closes and removes the temporary file (kReplace); the target is left as it was.
  void Abandon();

 private:
  OutputFile(std::string path, OutputTarget target, std::string write_path, int fd);

  std::string path_;
  OutputTarget target_;
  std::string write_path_;
  int fd_ = -1;
};

// One file of a command line: the option naming it ("-o", "--jsonl", "TRACE") and its path.
struct NamedPath {
  std::string option;
  std::string path;
};

// Fails (bad input) when an output is the same file as an input ("OUT: -o is also an input
// (TRACE)", compared by device and inode after symlinks) or two outputs name one file ("OUT:
// given for both -o and --jsonl"; "-" twice included). Empty paths are ignored; so are character
// devices (two outputs to /dev/null are harmless).
Outcome CheckOutputsDistinct(const std::vector<NamedPath>& inputs,
                             const std::vector<NamedPath>& outputs);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_OUTPUT_PATH_H_
