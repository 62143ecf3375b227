// Limits on YAML input (harness/fuzz/README.md): nesting depth, and the nodes that aliases
// expand to in one file (a "billion laughs" file is a few hundred bytes). Real manifests, case
// files and configurations stay far below both. Plain numbers so that reference/ needs nothing of
// traces/: traces/input_limits.h fills one from `--limit yaml-depth=N` / `yaml-alias-nodes=N`.
#ifndef SCHEDCHECK_REFERENCE_K8S_YAML_LIMITS_H_
#define SCHEDCHECK_REFERENCE_K8S_YAML_LIMITS_H_

#include <cstdint>

namespace schedcheck::k8s {

inline constexpr int64_t kMaxYamlDepth = 100;
inline constexpr int64_t kMaxYamlAliasNodes = 1'000'000;

struct YamlLimits {
  // Mappings and sequences open at once in one document (the limit yaml-depth).
  int64_t depth = kMaxYamlDepth;
  // Nodes that the aliases of one file stand for, counted as expanded (yaml-alias-nodes).
  int64_t alias_nodes = kMaxYamlAliasNodes;
};

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_YAML_LIMITS_H_
