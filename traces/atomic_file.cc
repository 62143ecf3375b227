#include "traces/atomic_file.h"

#include "traces/output_path.h"

namespace schedcheck::trace {

Outcome WriteFileAtomically(const std::string& path, std::string_view contents) {
  Result<OutputFile> out = OutputFile::Open(path, /*binary=*/false);
  if (!out.ok()) return out.error();
  if (Outcome ok = out->WriteAll(contents); !ok) return ok;  // abandoned by its destructor
  return out->Commit();
}

}  // namespace schedcheck::trace
