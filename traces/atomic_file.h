// Writes a whole file so that readers see either the old file or the complete new one, never a
// half-written one: write a temporary file beside it, fsync, rename. A FIFO, device, symlink or
// "-" (standard output) is handled as traces/output_path.h says: written in place, not replaced.
#ifndef SCHEDCHECK_TRACES_ATOMIC_FILE_H_
#define SCHEDCHECK_TRACES_ATOMIC_FILE_H_

#include <string>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::trace {

Outcome WriteFileAtomically(const std::string& path, std::string_view contents);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_ATOMIC_FILE_H_
