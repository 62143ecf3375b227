// Where the bundled kube-scheduler adapters live (`kube:VERSION` candidates): the executables
// //harness/kube:kube-adapter-VERSION, Go programs that put upstream's scheduler behind the
// external-scheduler protocol (harness/protocol/PROTOCOL.md).
//
// Lookup, first hit wins:
//   1. $SCHEDCHECK_KUBE_ADAPTER_DIR/kube-adapter-VERSION when the variable is set (and then only
//      there: an explicit directory never silently falls back to another build);
//   2. <directory of the running executable>/../kube/kube-adapter-VERSION, i.e. bazel-bin's layout
//      (bazel-bin/harness/cli/schedcheck next to bazel-bin/harness/kube/);
//   3. Bazel runfiles: $RUNFILES_DIR, $TEST_SRCDIR and <executable>.runfiles, each followed by
//      /schedcheck/harness/kube/kube-adapter-VERSION.
#ifndef SCHEDCHECK_HARNESS_CANDIDATES_KUBE_ADAPTER_H_
#define SCHEDCHECK_HARNESS_CANDIDATES_KUBE_ADAPTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"

namespace schedcheck::candidates {

// The versions with an adapter target, oldest first ("1.27", "1.37").
const std::vector<std::string>& KubeAdapterVersions();

// Where to look; FromEnvironment() reads the variables above and /proc/self/exe. Empty fields are
// skipped. Separate from the lookup so that tests can point it anywhere.
struct AdapterSearch {
  std::string adapter_dir;  // $SCHEDCHECK_KUBE_ADAPTER_DIR
  std::string executable;   // the running binary, symlinks resolved
  std::vector<std::string> runfiles_dirs;
  static AdapterSearch FromEnvironment();
};

// The adapter's path, or "kube:1.27: the adapter executable was not found (looked in A, B); build
// it with: bazel build //harness/kube:kube-adapter-1.27". REQUIRES: a known version.
Result<std::string> FindKubeAdapter(const std::string& version, const AdapterSearch& search);

// Upstream's klog output (a PreBind that fails for want of a PV controller is logged as an error:
// correct behaviour that reads like a crash) goes to a file rather than between the harness's own
// lines. Unless SCHEDCHECK_KUBE_LOG is already set (the adapters read it: "stderr", "info" or a
// file; harness/kube/shared/adapterkit/logs.go), sets it in this process's environment, which the
// children inherit, to $TMPDIR/schedcheck-kube-PID.log (or /tmp/...), and prints that path once on
// stderr. The path reaches no decision log or report.
void RouteKubeLogsToFile();

// `path` quoted for /bin/sh: 'it'\''s'.
std::string ShellQuote(const std::string& path);

}  // namespace schedcheck::candidates

#endif  // SCHEDCHECK_HARNESS_CANDIDATES_KUBE_ADAPTER_H_
