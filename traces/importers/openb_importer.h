// `schedcheck import --from openb`: the Alibaba GPU cluster trace (cluster-trace-gpu-v2023, the
// FGD paper's "openb" CSVs): node lists (columns sn, cpu_milli, memory_mib, gpu, model) and pod
// lists (name, cpu_milli, memory_mib, num_gpu, gpu_milli and optionally gpu_spec, qos, pod_phase,
// creation_time, deletion_time, scheduled_time), told apart by their header. The mapping onto
// Nodes and Pods and the protocol options are documented in README.md ("openb").
#ifndef SCHEDCHECK_TRACES_IMPORTERS_OPENB_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_OPENB_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

inline constexpr char kGpuCountResource[] = "alibabacloud.com/gpu-count";
inline constexpr char kGpuMilliResource[] = "alibabacloud.com/gpu-milli";
inline constexpr char kGpuModelLabel[] = "alibabacloud.com/gpu-card-model";
inline constexpr char kQosLabel[] = "alibabacloud.com/qos";

Result<Imported> ImportOpenb(const std::vector<std::string>& inputs, const ImportOptions& options);

// The folder holding the public openb CSVs (openb_pod_list_default.csv and
// openb_node_list_all_node.csv), looked up in $SCHEDCHECK_SHARED_DATA, /work/shared/data,
// $BUILD_WORKSPACE_DIRECTORY/../shared/data, `extra_roots`, then ../shared/data (each either the
// data root or its alibaba-gpu-v2023 folder); "" when absent. For tests and benchmarks only.
std::string FindOpenbDataDir(const std::vector<std::string>& extra_roots = {});

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_OPENB_IMPORTER_H_
