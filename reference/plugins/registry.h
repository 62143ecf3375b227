// The in-tree plugins, by upstream name. To add an out-of-tree plugin: put it in its own folder
// under reference/plugins/ and add one Register line to registry.cc (see README "Plugins").
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_REGISTRY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_REGISTRY_H_

#include "reference/framework/registry.h"

namespace schedcheck::reference {

// Every plugin schedcheck knows. Aborts on a duplicate name (a programming error).
const Registry& PluginRegistry();

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_REGISTRY_H_
