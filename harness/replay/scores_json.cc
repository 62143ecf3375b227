#include "harness/replay/scores_json.h"

namespace schedcheck::replay {

nlohmann::ordered_json ScoresJson(const trace::Attempt& attempt) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const trace::NodeScore& s : attempt.scores()) {
    nlohmann::ordered_json node;
    node["node"] = s.node();
    node["total"] = s.total();
    if (s.plugins_size() > 0) {
      nlohmann::ordered_json plugins = nlohmann::ordered_json::object();
      for (const trace::PluginScore& p : s.plugins()) plugins[p.plugin()] = p.score();
      node["plugins"] = std::move(plugins);
    }
    list.push_back(std::move(node));
  }
  return list;
}

namespace {

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Outcome ParseScoresJson(const nlohmann::json& scores, const std::string& where,
                        trace::Attempt* attempt) {
  if (!scores.is_array()) {
    return Error{where + ": field scores: expected a list of {node, total, plugins}, got " +
                 Dump(scores)};
  }
  for (size_t i = 0; i < scores.size(); ++i) {
    const nlohmann::json& s = scores[i];
    const std::string field = "field scores[" + std::to_string(i) + "]";
    if (!s.is_object())
      return Error{where + ": " + field + ": expected an object {node, total, plugins}"};
    if (!s.contains("node") || !s["node"].is_string() || s["node"].get<std::string>().empty())
      return Error{where + ": " + field + ".node: expected a non-empty string"};
    if (!s.contains("total") || !s["total"].is_number_integer()) {
      return Error{where + ": " + field + ".total: expected an integer, got " +
                   (s.contains("total") ? Dump(s["total"]) : "nothing")};
    }
    trace::NodeScore* out = attempt->add_scores();
    out->set_node(s["node"].get<std::string>());
    // is_number_integer holds an int64 or a uint64; a total above int64 is not a score.
    if (s["total"].is_number_unsigned() &&
        s["total"].get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      return Error{where + ": " + field + ".total: out of range"};
    out->set_total(s["total"].get<int64_t>());
    if (!s.contains("plugins")) continue;
    if (!s["plugins"].is_object())
      return Error{where + ": " + field + ".plugins: expected an object of plugin: score"};
    for (const auto& [plugin, value] : s["plugins"].items()) {
      if (!value.is_number_integer() ||
          (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
        return Error{where + ": " + field + ".plugins." + plugin + ": expected an integer"};
      trace::PluginScore* p = out->add_plugins();
      p->set_plugin(plugin);
      p->set_score(value.get<int64_t>());
    }
  }
  return Outcome();
}

}  // namespace schedcheck::replay
