#include "harness/cli/limit_option.h"

#include "traces/input_limits.h"

namespace schedcheck::cli {
namespace {

// Every name with what it bounds and its default, so that `--help` is the reference.
std::string LimitHelp() {
  const trace::InputLimits d;
  auto n = [](int64_t v) { return std::to_string(v); };
  return "raise an input limit, NAME=VALUE (repeatable): records (per trace or decision log, "
         "objects per import or manifest set, cases per check; default " +
         n(d.records) +
         "), expanded-objects (pods, claims and ReplicaSets the workloads of one import expand "
         "to, " +
         n(d.expanded_objects) + "), string-bytes (any one string, " + n(d.string_bytes) +
         "), key-bytes (a label/annotation/selector key, " + n(d.key_bytes) +
         "), map-entries (labels, annotations, ... of one object, " + n(d.map_entries) +
         "), slice-devices (devices of one ResourceSlice, " + n(d.slice_devices) +
         "), claim-requests (requests of one ResourceClaim, " + n(d.claim_requests) +
         "), cel-bytes (one CEL device selector, " + n(d.cel_bytes) +
         "), group-pods (a pod group's gang minCount, " + n(d.group_pods) +
         "), yaml-depth (YAML nesting, " + n(d.yaml_depth) +
         "), yaml-alias-nodes (nodes one YAML file's aliases expand to, " + n(d.yaml_alias_nodes) +
         ")";
}

}  // namespace

void AddLimitOption(CLI::App* cmd, std::vector<std::string>* specs) {
  cmd->add_option("--limit", *specs, LimitHelp())->allow_extra_args(false)->type_name("NAME=VALUE");
}

}  // namespace schedcheck::cli
