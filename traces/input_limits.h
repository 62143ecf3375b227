// Size limits on untrusted input (harness/fuzz/README.md): records per trace or import, the
// length of any one string, of a map key, the entries of one map (labels, annotations,
// nodeSelector, ...), and YAML's nesting depth and alias expansion. The defaults are far above
// anything a Kubernetes API server accepts or a real capture holds; `--limit NAME=VALUE` on the
// commands that read traces or captures raises (or lowers) them. The readers of traces/ and
// traces/importers/ take an InputLimits and check every record they produce; nothing here is
// global.
#ifndef SCHEDCHECK_TRACES_INPUT_LIMITS_H_
#define SCHEDCHECK_TRACES_INPUT_LIMITS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "google/protobuf/message.h"
#include "reference/base/result.h"
#include "reference/k8s/yaml_limits.h"

namespace schedcheck::trace {

struct InputLimits {
  // Records per trace (binary or JSON Lines), objects per import.
  int64_t records = 10'000'000;
  // Objects the workloads of one import expand to (pods, their claims, a Deployment's ReplicaSet),
  // checked against what each workload *will* create before any of it is built: a StatefulSet of
  // 10^5 replicas with 20 claim templates is refused at once instead of taking gigabytes.
  int64_t expanded_objects = 1'000'000;
  // Bytes of any one string: names, label and annotation values, messages, images, ... The API
  // server keeps a whole object under 1.5 MiB and all annotations of one under 256 KiB.
  int64_t string_bytes = 1 << 20;
  // Bytes of one map key: label, annotation, selector and resource names (API server: 317).
  int64_t key_bytes = 1024;
  // Entries of one map: labels, annotations, nodeSelector, matchLabels, capacity, ...
  int64_t map_entries = 10'000;
  // Dynamic Resource Allocation, at upstream's v1.37.2 maxima (resource/v1 ResourceSliceMaxDevices,
  // DeviceRequestsMaxSize, CELSelectorExpressionMaxLength): devices of one ResourceSlice, requests
  // of one claim (or claim template), bytes of one CEL selector expression. Options, not
  // validation rules, so that a capture of a later release with larger maxima still imports.
  int64_t slice_devices = 128;
  int64_t claim_requests = 32;
  int64_t cel_bytes = 10 * 1024;
  // Pods one pod group (GenericWorkload) may ask for: its gang minCount. As many as one workload
  // may expand to (kMaxWorkloadPods); the API server only requires at least 1.
  int64_t group_pods = 100'000;
  // YAML: mappings and sequences open at once, and the nodes one file's aliases expand to.
  int64_t yaml_depth = k8s::kMaxYamlDepth;
  int64_t yaml_alias_nodes = k8s::kMaxYamlAliasNodes;
};

// The YAML part, for the readers of reference/k8s (which cannot include traces/).
k8s::YamlLimits YamlLimitsOf(const InputLimits& limits);

// The names `--limit` accepts, in documentation order: records, expanded-objects, string-bytes,
// key-bytes, map-entries, slice-devices, claim-requests, cel-bytes, group-pods, yaml-depth,
// yaml-alias-nodes.
const std::vector<std::string>& InputLimitNames();

// Applies one "NAME=VALUE" (VALUE a positive decimal integer) to *limits. Errors name the option
// and the known names.
Outcome ParseInputLimit(const std::string& spec, InputLimits* limits);
// Applies each spec in order.
Outcome ParseInputLimits(const std::vector<std::string>& specs, InputLimits* limits);

// The error for a limit exceeded ("<where>: " left out when `where` is empty): "<where>: <what>:
// <actual>, more than the limit NAME=VALUE (raise it with --limit NAME=N)".
Error LimitExceeded(const std::string& where, const std::string& what, int64_t actual,
                    const std::string& name, int64_t limit);

// The error for one record more than limits.records: "<where>: more than 10 records, the limit
// records=10 (raise it with --limit records=N)".
Error TooManyRecords(const std::string& where, int64_t limit);

// Checks every string, map key and map size in `message` (recursively), and the DRA limits (a
// ResourceSliceSpec's devices, a DeviceClaim's requests, a CEL expression), and a gang's minCount
// (group-pods, in a PodGroup or a Workload's pod group template). `where` names the
// position ("t.jsonl: line 4", may be empty); the error adds the field path in Kubernetes' JSON
// names, starting with `path` when the message is itself a field ("pods[2]"), e.g.
//   t.jsonl: line 4: field api.pod.metadata.labels: 10001 entries, more than the limit
//   map-entries=10000 (raise it with --limit map-entries=N)
Outcome CheckMessageLimits(const google::protobuf::Message& message, const InputLimits& limits,
                           const std::string& where, const std::string& path = "");

// True when `message` (a Record or an ApiEvent), serialized in `bytes` bytes, cannot exceed any
// limit, so that readers can skip CheckMessageLimits on the common small record: every string,
// key and map entry takes at least its own length (at least 2 bytes per entry), and it holds no
// Workload or PodGroup (a gang's minCount of any size fits in 5 bytes).
bool FitsTrivially(const google::protobuf::Message& message, size_t bytes,
                   const InputLimits& limits);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_INPUT_LIMITS_H_
