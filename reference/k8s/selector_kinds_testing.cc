#include "reference/k8s/selector_kinds_testing.h"

#include <string>
#include <vector>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::k8s::testing {

Result<SelectorKinds> ParseSelectorKinds() {
  auto docs = ParseYamlDocuments(R"(kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web, tier: 1}, ports: [{port: 80}]}
---
kind: ReplicationController
metadata: {name: old}
spec: {replicas: 3, selector: {app: old}}
---
kind: ReplicaSet
metadata: {name: rs, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: d, controller: true}]}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web, version: 2}
    matchExpressions: [{key: track, operator: NotIn, values: [canary]}]
  template: {metadata: {labels: {app: web}}}
---
kind: StatefulSet
metadata: {name: db}
spec: {selector: {matchLabels: {app: db}}, serviceName: db}
)",
                                 "kinds.yaml");
  if (!docs.ok()) return docs.error();
  if (docs->size() != 4) {
    return Error{"kinds.yaml: " + std::to_string(docs->size()) + " documents, want 4"};
  }
  auto service = ServiceFromJson((*docs)[0].json, "svc");
  if (!service.ok()) return service.error();
  auto rc = ReplicationControllerFromJson((*docs)[1].json, "rc");
  if (!rc.ok()) return rc.error();
  auto rs = ReplicaSetFromJson((*docs)[2].json, "rs");
  if (!rs.ok()) return rs.error();
  auto ss = StatefulSetFromJson((*docs)[3].json, "ss");
  if (!ss.ok()) return ss.error();
  return SelectorKinds{std::move(*service), std::move(*rc), std::move(*rs), std::move(*ss)};
}

}  // namespace schedcheck::k8s::testing
