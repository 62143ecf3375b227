// Registry: plugin name -> factory (framework/runtime/registry.go). A factory receives the
// plugin's pluginConfig args (JSON null when none were given: apply upstream's defaults) and the
// runtime's Handle. Registering a name twice is an error.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_REGISTRY_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"

namespace schedcheck::reference {

using PluginArgs = nlohmann::json;
using PluginFactory =
    std::function<Result<std::unique_ptr<Plugin>>(const PluginArgs& args, const Handle& handle)>;

class Registry {
 public:
  Outcome Register(std::string name, PluginFactory factory) {
    if (factories_.count(name)) return Error{"plugin \"" + name + "\" registered twice"};
    factories_.emplace(std::move(name), std::move(factory));
    return Outcome::Ok();
  }
  // A registered name's factory replaced (the fast engine's accelerated plugins).
  Outcome Replace(const std::string& name, PluginFactory factory) {
    auto it = factories_.find(name);
    if (it == factories_.end()) return Error{"plugin \"" + name + "\" is not registered"};
    it->second = std::move(factory);
    return Outcome::Ok();
  }
  const PluginFactory* Find(std::string_view name) const {
    auto it = factories_.find(name);
    return it == factories_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& [name, f] : factories_) names.push_back(name);
    return names;
  }

 private:
  std::map<std::string, PluginFactory, std::less<>> factories_;
};

// Helper for plugins without arguments: `registry.Register("NodeName", NoArgs<NodeName>())`.
template <typename P>
PluginFactory NoArgs() {
  return [](const PluginArgs&, const Handle&) -> Result<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(std::make_unique<P>());
  };
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_REGISTRY_H_
