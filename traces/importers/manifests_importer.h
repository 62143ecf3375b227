// `schedcheck import --from manifests`: YAML (multi-document) / JSON / JSON Lines files and
// folders of the kinds a trace holds (redaction.h: Nodes, Pods, Namespaces, PriorityClasses,
// PodDisruptionBudgets, selector and storage objects), workloads and Lists, read with the file
// rules of traces/manifests.h, become the initial state: every object ADDED at t = 0
// (--start-time, default 1970-01-01T00:00:00Z) in this order: Namespaces, PriorityClasses,
// PodDisruptionBudgets, selector objects, StorageClasses and CSIDrivers, PersistentVolumes,
// PersistentVolumeClaims, Nodes, CSINodes and CSIStorageCapacities, bound pods (spec.nodeName
// set), pending pods; file order within each group. Other kinds are counted and skipped with a
// warning; redaction as in redaction.h.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_MANIFESTS_IMPORTER_H_
#define SCHEDCHECK_TRACES_IMPORTERS_MANIFESTS_IMPORTER_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/importers/imported.h"

namespace schedcheck::trace {

Result<Imported> ImportManifests(const std::vector<std::string>& inputs,
                                 const ImportOptions& options);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_MANIFESTS_IMPORTER_H_
