#include "reference/accel/node_name/fast_node_name.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastNodeName::New(const PluginArgs& args, const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NodeName::New(args, handle);
  if (!plain.ok()) return plain.error();
  if (handle.features.node_name_pre_filter) {
    return std::unique_ptr<Plugin>(std::make_unique<FastNodeNameOf<NodeNameV1_37>>());
  }
  return std::unique_ptr<Plugin>(std::make_unique<FastNodeNameOf<NodeName>>());
}

}  // namespace schedcheck::reference
