// A test fixture shared by reference/k8s's k8s_json_test and traces' record_json_test: one object
// of each selector kind (Service, ReplicationController, ReplicaSet, StatefulSet) decoded from
// YAML, with bare YAML numbers as label values, an owner reference, match expressions, and the
// replicas and templates the decoder drops.
#ifndef SCHEDCHECK_REFERENCE_K8S_SELECTOR_KINDS_TESTING_H_
#define SCHEDCHECK_REFERENCE_K8S_SELECTOR_KINDS_TESTING_H_

#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::k8s::testing {

struct SelectorKinds {
  Service service;                               // web in shop: {app: web, tier: "1"}
  ReplicationController replication_controller;  // old: {app: old}
  ReplicaSet replica_set;    // rs, owned by Deployment d: app=web, version=2, track NotIn canary
  StatefulSet stateful_set;  // db: app=db
};

// Decodes the fixture's four documents (source "kinds.yaml"; the objects' `where` are "svc",
// "rc", "rs" and "ss"). Errors: the first decoding failure, or a document count other than 4.
Result<SelectorKinds> ParseSelectorKinds();

}  // namespace schedcheck::k8s::testing

#endif  // SCHEDCHECK_REFERENCE_K8S_SELECTOR_KINDS_TESTING_H_
