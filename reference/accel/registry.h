// The plugins of the fast engine: the plain registry (reference/plugins/registry.h) with each
// accelerated plugin's factory in place of its plain one, under the same upstream name.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_REGISTRY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_REGISTRY_H_

#include "reference/framework/registry.h"

namespace schedcheck::reference {

const Registry& FastPluginRegistry();

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_REGISTRY_H_
