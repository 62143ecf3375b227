#include "traces/output_path.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

namespace schedcheck::trace {
namespace {

std::string Errno(const std::string& path, const std::string& what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Follows `path` while it is a symlink (relative targets are relative to the link's directory);
// the last name may not exist. Bounded like the kernel's ELOOP.
Result<std::string> FollowSymlinks(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof(buf) - 1);
    if (n < 0) return Error{Errno(path, "cannot read symlink")};
    std::string target(buf, static_cast<size_t>(n));
    path = target.front() == '/' ? target : DirName(path) + "/" + target;
  }
  return Error{path + ": too many levels of symbolic links"};
}

// Device and inode of an existing file (symlinks followed).
std::optional<std::pair<dev_t, ino_t>> FileId(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::make_pair(st.st_dev, st.st_ino);
}

// What identifies an output for the duplicate check: "-", the file's device and inode, or for a
// new file its directory's real path and its name. Empty for a character device (never refused).
std::string OutputIdentity(const std::string& path) {
  if (path == "-") return "-";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode)) return "";
    return "id:" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  Result<std::string> resolved = FollowSymlinks(path);
  const std::string& p = resolved.ok() ? *resolved : path;
  char* dir = ::realpath(DirName(p).c_str(), nullptr);
  std::string out = std::string("new:") + (dir ? dir : DirName(p)) + "/" +
                    p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1);
  std::free(dir);
  return out;
}

}  // namespace

Result<OutputTarget> ResolveOutput(const std::string& path) {
  if (path == "-") return OutputTarget{OutputTarget::Kind::kStdout, "-"};
  Result<std::string> resolved = FollowSymlinks(path);
  if (!resolved.ok()) return resolved.error();
  struct stat st;
  if (::stat(resolved->c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Error{path + ": is a directory"};
    return OutputTarget{OutputTarget::Kind::kDirect, *resolved};
  }
  return OutputTarget{OutputTarget::Kind::kReplace, *resolved};
}

OutputFile::OutputFile(std::string path, OutputTarget target, std::string write_path, int fd)
    : path_(std::move(path)),
      target_(std::move(target)),
      write_path_(std::move(write_path)),
      fd_(fd) {}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      write_path_(std::move(other.write_path_)),
      fd_(std::exchange(other.fd_, -1)) {}

OutputFile::~OutputFile() { Abandon(); }

Result<OutputFile> OutputFile::Open(const std::string& path, bool binary) {
  Result<OutputTarget> target = ResolveOutput(path);
  if (!target.ok()) return target.error();
  switch (target->kind) {
    case OutputTarget::Kind::kStdout: {
      if (binary && ::isatty(STDOUT_FILENO)) {
        return Error{
            "-: refusing to write a binary trace to a terminal (redirect standard "
            "output, or name a file)"};
      }
      const int fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
      if (fd < 0) return Error{Errno("-", "cannot use standard output")};
      return OutputFile(path, *target, "-", fd);
    }
    case OutputTarget::Kind::kDirect: {
      // No O_TRUNC/O_CREAT: the node exists and is not a regular file.
      const int fd = ::open(target->path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) return Error{Errno(path, "cannot open")};
      return OutputFile(path, *target, target->path, fd);
    }
    case OutputTarget::Kind::kReplace:
      break;
  }
  std::string temp = target->path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{Errno(temp, "cannot create")};
  return OutputFile(path, *target, std::move(temp), fd);
}

Outcome OutputFile::WriteAll(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{Errno(write_path_, "write failed")};
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Outcome::Ok();
}

Outcome OutputFile::Commit() {
  const bool replace = target_.kind == OutputTarget::Kind::kReplace;
  // fsync only what is renamed into place: pipes and terminals reject it (EINVAL).
  if (replace && ::fsync(fd_) != 0) return Error{Errno(write_path_, "fsync failed")};
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return Error{Errno(write_path_, "close failed")};
  if (replace && ::rename(write_path_.c_str(), target_.path.c_str()) != 0) {
    const std::string message = Errno(path_, "cannot rename " + write_path_ + " into place");
    ::unlink(write_path_.c_str());
    return Error{message};
  }
  write_path_ = target_.path;
  target_.kind = OutputTarget::Kind::kDirect;  // committed: nothing left to remove
  return Outcome::Ok();
}

void OutputFile::Abandon() {
  if (fd_ < 0) return;
  ::close(std::exchange(fd_, -1));
  if (target_.kind == OutputTarget::Kind::kReplace) ::unlink(write_path_.c_str());
}

Outcome CheckOutputsDistinct(const std::vector<NamedPath>& inputs,
                             const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (out.path.empty()) continue;
    const auto out_id = FileId(out.path);
    for (const NamedPath& in : inputs) {
      if (in.path.empty() || out.path == "-") continue;
      const auto in_id = FileId(in.path);
      if (out_id && in_id && *out_id == *in_id) {
        return Error{out.path + ": " + out.option + " is also an input (" + in.option +
                     "); refusing to overwrite it"};
      }
    }
    const std::string id = OutputIdentity(out.path);
    if (id.empty()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && OutputIdentity(outputs[j].path) == id) {
        return Error{out.path + ": given for both " + outputs[j].option + " and " + out.option};
      }
    }
  }
  return Outcome::Ok();
}

}  // namespace schedcheck::trace
