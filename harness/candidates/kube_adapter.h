// Where the bundled kube-scheduler adapters live (`kube:VERSION` candidates), Go programs that put
// upstream's scheduler behind the external-scheduler protocol (harness/protocol/PROTOCOL.md):
//   kube:1.27, kube:1.37    the pinned patches (v1.27.8, v1.37.2), built by Bazel as
//                           //harness/kube:kube-adapter-VERSION and looked up as below;
//   kube:1.35, kube:1.36    the pinned v1.35.4, v1.36.4: Bazel's `manual` targets
//                           //harness/kube:kube-adapter-VERSION when built, else built on first
//                           use like a patch release;
//   kube:X.Y.Z              any patch release of a minor with a bridge (harness/kube/v<minor>),
//                           built on first use by harness/kube/build.sh --cache into
//                           $SCHEDCHECK_CACHE/adapters/kube-X.Y.Z (BuildKubeAdapter). The pinned
//                           patch itself (kube:1.37.2) is the Bazel adapter when one is found.
//   kube-src:DIR            a local kubernetes checkout, built on first use and after each change
//                           of its content into $SCHEDCHECK_CACHE/adapters/kube-src-<key>
//                           (BuildKubeSrcAdapter).
//
// Lookup of a pinned adapter, first hit wins:
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

// The versions with an adapter target, oldest first ("1.27", "1.35", "1.36", "1.37").
const std::vector<std::string>& KubeAdapterVersions();

// The minors with a bridge (harness/kube/v<minor>/patches.json), oldest first.
const std::vector<std::string>& KubeBridgeMinors();

// A kube:VERSION spec's version taken apart.
struct KubeVersion {
  std::string text;    // as written: "1.37" or "1.37.1"
  std::string pinned;  // the adapter target's version ("1.37") for kube:1.37 and kube:1.37.2
  std::string patch;   // the exact release ("1.37.1", "1.37.2"); empty for kube:1.37
  // For a pinned minor CI does not build (kube:1.35, kube:1.36): its pinned patch ("1.36.4"), built
  // on first use when Bazel's adapter is not found. Empty otherwise.
  std::string first_use;
};

// "1.27", "1.35", "1.36" and "1.37" name the pinned adapters; "X.Y.Z" a patch release whose minor
// has a bridge. Errors: "unknown kube-scheduler version \"1.30\" (...)" listing the pinned versions
// and the bridges; "no bridge for minor 1.30 (supported minors: 1.27, 1.35, 1.36, 1.37)" for
// kube:1.30.1. Whether the module proxy serves the release is only known when it is built.
Result<KubeVersion> ParseKubeVersion(const std::string& version);

// Where to look; FromEnvironment() reads the variables above and /proc/self/exe. Empty fields are
// skipped. Separate from the lookup so that tests can point it anywhere.
struct AdapterSearch {
  std::string adapter_dir;  // $SCHEDCHECK_KUBE_ADAPTER_DIR
  std::string executable;   // the running binary, symlinks resolved
  std::vector<std::string> runfiles_dirs;
  // harness/kube/build.sh for first-use builds: $SCHEDCHECK_KUBE_SOURCES/build.sh, else the one in
  // the runfiles (//harness/cli:schedcheck carries the adapters' sources), symlinks resolved so
  // that Go sees the source tree. Empty: not found.
  std::string build_script;
  static AdapterSearch FromEnvironment();
};

// The adapter's path, or "kube:1.27: the adapter executable was not found (looked in A, B); build
// it with: bazel build //harness/kube:kube-adapter-1.27". REQUIRES: a known version.
Result<std::string> FindKubeAdapter(const std::string& version, const AdapterSearch& search);

// The adapter of an exact patch release: runs `build.sh --kube X.Y.Z --cache`, which builds it
// (its progress lines go to this process's stderr) unless the cached one was built from the same
// sources, and prints its path. Errors: the build script's reason (a release the module proxy does
// not serve, an anchor of the bridge that moved, a mixed build), naming the version.
// REQUIRES: version.patch is not empty.
Result<std::string> BuildKubeAdapter(const KubeVersion& version, const AdapterSearch& search);

// The adapter of a local kubernetes checkout (`kube-src:DIR`): runs `build.sh --kube-src DIR
// --cache`, which detects the tree's minor, builds the bundled adapter of that minor against DIR's
// code through an overlay (never writing into DIR) unless the cached build has the same tree hash
// and sources, and prints its path. Errors name DIR: not a directory, not a kubernetes checkout,
// a minor without a bridge, an edit of a line the bridge anchors on (file and edit named).
Result<std::string> BuildKubeSrcAdapter(const std::string& dir, const AdapterSearch& search);

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
