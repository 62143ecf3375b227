#include "harness/campaign/summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "harness/diff/report.h"

namespace schedcheck::campaign {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// A Markdown table cell: no '|' or line break.
std::string Cell(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// Reads field `key` of `j` as T; the error names the source and the path.
template <typename T>
Outcome Get(const json& j, const std::string& key, const std::string& where, T* out) {
  auto it = j.find(key);
  if (it == j.end()) return Error{where + ": field \"" + key + "\" is missing"};
  try {
    *out = it->get<T>();
  } catch (const json::exception&) {
    return Error{where + ": field \"" + key + "\" has the wrong type"};
  }
  return Outcome::Ok();
}

std::string Title(const Summary& s) {
  auto side = [](const std::string& spec, const std::string& config) {
    return spec + (config.empty() ? "" : " with " + config);
  };
  return "candidate " + side(s.candidate, s.candidate_config) + " vs baseline " +
         side(s.baseline, s.baseline_config) + " at " + s.compat;
}

}  // namespace

int Summary::ExitCode() const {
  if (!nondeterministic.empty()) return 3;
  return groups.empty() ? 0 : 1;
}

ordered_json ToJson(const Summary& s) {
  ordered_json j;
  j["format"] = kSummaryFormat;
  j["baseline"] = s.baseline;
  j["candidate"] = s.candidate;
  j["baseline_config"] = s.baseline_config;
  j["candidate_config"] = s.candidate_config;
  j["compat"] = s.compat;
  j["seed"] = s.seed;
  j["traces"] = s.traces;
  j["generators"] = s.generators;
  j["shards"] = s.shards;
  j["traces_run"] = s.traces_run;
  j["passed"] = s.passed;
  ordered_json groups = ordered_json::array();
  for (const Group& g : s.groups) {
    ordered_json o;
    o["id"] = g.id;
    o["signature"] = g.signature;
    o["class"] = g.cls;
    o["plugins"] = g.plugins;
    o["traces"] = g.traces;
    o["generator"] = g.generator;
    o["trace_seed"] = g.trace_seed;
    o["replay_seed"] = g.replay_seed;
    o["config"] = g.config;
    o["first"] = g.first;
    o["minimized"] = g.minimized;
    groups.push_back(std::move(o));
  }
  j["groups"] = std::move(groups);
  ordered_json skipped = ordered_json::array();
  for (const Skipped& k : s.skipped)
    skipped.push_back({{"trace", k.trace}, {"message", k.message}});
  j["skipped"] = std::move(skipped);
  ordered_json nondeterministic = ordered_json::array();
  for (const Nondeterministic& n : s.nondeterministic)
    nondeterministic.push_back({{"trace", n.trace}, {"message", n.message}});
  j["nondeterministic"] = std::move(nondeterministic);
  return j;
}

Result<Summary> FromJson(const json& j, const std::string& source) {
  if (!j.is_object()) return Error{source + ": not a JSON object"};
  Summary s;
  int format = 0;
  if (Outcome ok = Get(j, "format", source, &format); !ok) return ok.error();
  if (format != kSummaryFormat)
    return Error{source + ": field \"format\" is " + std::to_string(format) + ", expected " +
                 std::to_string(kSummaryFormat) + " (written by another schedcheck?)"};
  for (Outcome ok :
       {Get(j, "baseline", source, &s.baseline), Get(j, "candidate", source, &s.candidate),
        Get(j, "baseline_config", source, &s.baseline_config),
        Get(j, "candidate_config", source, &s.candidate_config),
        Get(j, "compat", source, &s.compat), Get(j, "seed", source, &s.seed),
        Get(j, "traces", source, &s.traces), Get(j, "generators", source, &s.generators),
        Get(j, "shards", source, &s.shards), Get(j, "traces_run", source, &s.traces_run),
        Get(j, "passed", source, &s.passed)}) {
    if (!ok) return ok.error();
  }
  json groups = json::array(), skipped = json::array(), nondeterministic = json::array();
  for (Outcome ok : {Get(j, "groups", source, &groups), Get(j, "skipped", source, &skipped),
                     Get(j, "nondeterministic", source, &nondeterministic)}) {
    if (!ok) return ok.error();
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const std::string where = source + ": groups[" + std::to_string(i) + "]";
    Group g;
    for (Outcome ok :
         {Get(groups[i], "id", where, &g.id), Get(groups[i], "signature", where, &g.signature),
          Get(groups[i], "class", where, &g.cls), Get(groups[i], "plugins", where, &g.plugins),
          Get(groups[i], "traces", where, &g.traces),
          Get(groups[i], "generator", where, &g.generator),
          Get(groups[i], "trace_seed", where, &g.trace_seed),
          Get(groups[i], "replay_seed", where, &g.replay_seed),
          Get(groups[i], "config", where, &g.config), Get(groups[i], "first", where, &g.first),
          Get(groups[i], "minimized", where, &g.minimized)}) {
      if (!ok) return ok.error();
    }
    if (g.traces.empty()) return Error{where + ": field \"traces\" is empty"};
    s.groups.push_back(std::move(g));
  }
  for (size_t i = 0; i < skipped.size(); ++i) {
    const std::string where = source + ": skipped[" + std::to_string(i) + "]";
    Skipped k;
    for (Outcome ok : {Get(skipped[i], "trace", where, &k.trace),
                       Get(skipped[i], "message", where, &k.message)}) {
      if (!ok) return ok.error();
    }
    s.skipped.push_back(std::move(k));
  }
  for (size_t i = 0; i < nondeterministic.size(); ++i) {
    const std::string where = source + ": nondeterministic[" + std::to_string(i) + "]";
    Nondeterministic n;
    for (Outcome ok : {Get(nondeterministic[i], "trace", where, &n.trace),
                       Get(nondeterministic[i], "message", where, &n.message)}) {
      if (!ok) return ok.error();
    }
    s.nondeterministic.push_back(std::move(n));
  }
  return s;
}

std::string MarkdownSummary(const Summary& s) {
  std::ostringstream m;
  m << "# schedcheck campaign: " << Title(s) << "\n\n";
  std::string gens, shards;
  for (const std::string& g : s.generators) gens += (gens.empty() ? "" : ", ") + g;
  for (const std::string& x : s.shards) shards += (shards.empty() ? "" : ", ") + x;
  m << "Seed " << s.seed << ", " << s.traces << " traces (shards " << shards << "; " << s.traces_run
    << " run), generators " << gens << ".\n\n";
  m << "**" << s.passed << " of " << s.traces_run << " traces without findings; " << s.groups.size()
    << " group(s) of findings";
  if (!s.nondeterministic.empty())
    m << "; " << s.nondeterministic.size() << " trace(s) not replayed deterministically";
  if (!s.skipped.empty()) m << "; " << s.skipped.size() << " trace(s) skipped";
  m << ".**\n";
  if (!s.groups.empty()) {
    m << "\n| group | class | plugins | traces | first trace | first divergence | minimized |\n"
      << "|---|---|---|---|---|---|---|\n";
    for (const Group& g : s.groups) {
      std::string plugins;
      for (const std::string& p : g.plugins) plugins += (plugins.empty() ? "" : ", ") + p;
      m << "| [" << g.id << "](groups/" << g.id << "/) | " << g.cls << " | " << Cell(plugins)
        << " | " << g.traces.size() << " | " << g.traces.front() << " (" << g.generator << ") | "
        << Cell(g.first) << " | " << Cell(g.minimized) << " |\n";
    }
  }
  for (const Nondeterministic& n : s.nondeterministic)
    m << "\n- NONDETERMINISTIC trace " << n.trace << ": " << Cell(n.message) << "\n";
  for (const Skipped& k : s.skipped)
    m << "\n- skipped trace " << k.trace << ": " << Cell(k.message) << "\n";
  return m.str();
}

std::string JUnitSummary(const Summary& s) {
  const size_t tests = s.groups.size() + s.nondeterministic.size() + 1;
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<testsuites>\n<testsuite name=\"" << diff::XmlEscape("schedcheck campaign: " + Title(s))
    << "\" tests=\"" << tests << "\" failures=\"" << s.groups.size() << "\" errors=\""
    << s.nondeterministic.size() << "\">\n";
  for (const Group& g : s.groups) {
    x << "  <testcase classname=\"campaign\" name=\"" << diff::XmlEscape("group " + g.id) << "\">\n"
      << "    <failure message=\"" << diff::XmlEscape(g.signature) << "\">"
      << diff::XmlEscape(std::to_string(g.traces.size()) + " trace(s); first: trace " +
                         std::to_string(g.traces.front()) + " (" + g.generator + "): " + g.first +
                         "\nminimized: " + g.minimized)
      << "</failure>\n  </testcase>\n";
  }
  for (const Nondeterministic& n : s.nondeterministic) {
    x << "  <testcase classname=\"campaign\" name=\"trace " << n.trace << "\">\n"
      << "    <error message=\"nondeterministic\">" << diff::XmlEscape(n.message)
      << "</error>\n  </testcase>\n";
  }
  x << "  <testcase classname=\"campaign\" name=\"" << s.passed
    << " traces without findings\"/>\n</testsuite>\n</testsuites>\n";
  return x.str();
}

Result<Summary> Merge(const std::vector<Summary>& shards, const std::vector<std::string>& sources) {
  if (shards.empty()) return Error{"--merge: no shard folders"};
  Summary out = shards.front();
  out.shards.clear();
  out.groups.clear();
  out.skipped.clear();
  out.nondeterministic.clear();
  out.traces_run = out.passed = 0;
  std::map<std::string, Group> by_signature;
  std::set<std::string> shard_names;
  for (size_t i = 0; i < shards.size(); ++i) {
    const Summary& s = shards[i];
    const Summary& f = shards.front();
    for (auto [name, same] : {std::pair{"baseline", s.baseline == f.baseline},
                              {"candidate", s.candidate == f.candidate},
                              {"baseline_config", s.baseline_config == f.baseline_config},
                              {"candidate_config", s.candidate_config == f.candidate_config},
                              {"compat", s.compat == f.compat},
                              {"seed", s.seed == f.seed},
                              {"traces", s.traces == f.traces},
                              {"generators", s.generators == f.generators}}) {
      if (!same)
        return Error{sources[i] + ": field \"" + name + "\" differs from " + sources[0] +
                     "'s: not a shard of the same campaign"};
    }
    for (const std::string& shard : s.shards) {
      if (!shard_names.insert(shard).second)
        return Error{sources[i] + ": shard " + shard + " is merged twice"};
      out.shards.push_back(shard);
    }
    out.traces_run += s.traces_run;
    out.passed += s.passed;
    out.skipped.insert(out.skipped.end(), s.skipped.begin(), s.skipped.end());
    out.nondeterministic.insert(out.nondeterministic.end(), s.nondeterministic.begin(),
                                s.nondeterministic.end());
    for (const Group& g : s.groups) {
      auto [it, inserted] = by_signature.emplace(g.signature, g);
      if (inserted) continue;
      Group& kept = it->second;
      std::vector<int64_t> traces = kept.traces;
      traces.insert(traces.end(), g.traces.begin(), g.traces.end());
      std::sort(traces.begin(), traces.end());
      if (g.traces.front() < kept.traces.front()) kept = g;
      kept.traces = std::move(traces);
    }
  }
  std::sort(out.shards.begin(), out.shards.end());
  for (auto& [signature, g] : by_signature) out.groups.push_back(std::move(g));
  std::sort(out.groups.begin(), out.groups.end(),
            [](const Group& a, const Group& b) { return a.traces.front() < b.traces.front(); });
  auto by_trace = [](const auto& a, const auto& b) { return a.trace < b.trace; };
  std::sort(out.skipped.begin(), out.skipped.end(), by_trace);
  std::sort(out.nondeterministic.begin(), out.nondeterministic.end(), by_trace);
  return out;
}

}  // namespace schedcheck::campaign
