#include "harness/bench/adapter_profile.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness/candidates/kube_adapter.h"

namespace schedcheck::bench {

Result<AdapterProfile> ReadAdapterProfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot be read (the child wrote no profile)"};
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return Error{path + ": not a JSON object"};
  AdapterProfile p;
  auto number = [&](const nlohmann::json& obj, const char* key, double* out) -> Outcome {
    if (!obj.contains(key)) return Outcome::Ok();  // an older adapter may not measure it
    if (!obj[key].is_number()) return Error{path + ": field " + key + ": not a number"};
    *out = obj[key].get<double>();
    return Outcome::Ok();
  };
  double runs = 0;
  if (Outcome ok = number(doc, "runs", &runs); !ok) return ok.error();
  p.runs = static_cast<int64_t>(runs);
  for (auto [key, out] :
       {std::pair{"startup_seconds", &p.startup}, std::pair{"user_cpu_seconds", &p.cpu},
        std::pair{"gc_cpu_seconds", &p.gc_cpu}, std::pair{"process_cpu_seconds", &p.process_cpu}}) {
    if (Outcome ok = number(doc, key, out); !ok) return ok.error();
  }
  if (!doc.contains("seconds") || !doc["seconds"].is_object())
    return Error{path + ": field seconds: missing or not an object"};
  const nlohmann::json& s = doc["seconds"];
  for (auto [key, out] :
       {std::pair{"wait", &p.wait}, std::pair{"decode", &p.decode}, std::pair{"hello", &p.hello},
        std::pair{"feed", &p.feed}, std::pair{"events", &p.events}, std::pair{"finish", &p.finish},
        std::pair{"encode", &p.encode}, std::pair{"send", &p.send}}) {
    if (Outcome ok = number(s, key, out); !ok) return ok.error();
  }
  return p;
}

std::string WithProfile(const std::string& command, const std::string& path) {
  return std::string(kAdapterProfileEnv) + "=" + candidates::ShellQuote(path) + " " + command;
}

std::string NewProfilePath() {
  static std::atomic<int> next{0};
  return "/tmp/schedcheck-bench-" + std::to_string(getpid()) + "-profile-" +
         std::to_string(next++) + ".json";
}

namespace {

std::string Ms(double seconds, int traces) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", traces > 0 ? seconds * 1000 / traces : 0.0);
  return buf;
}

std::string Share(double part, double whole) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f %%", whole > 0 ? 100 * part / whole : 0.0);
  return buf;
}

}  // namespace

std::string FormatShares(const std::vector<AdapterProfile>& profiles, int traces) {
  if (profiles.empty()) return "";
  std::string out =
      "adapter time per trace (ms, share of the adapter's busy time), as the adapters measured "
      "it\n\n"
      "| child | busy ms/trace | process start | Hello (config, scheduler.New) | informer feeding "
      "| "
      "upstream's scheduling | protocol framing | waiting for the harness ms/trace | process CPU "
      "ms/trace | GC CPU ms/trace |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const AdapterProfile& p : profiles) {
    const double busy = p.Busy();
    auto cell = [&](double part) { return Ms(part, traces) + " (" + Share(part, busy) + ")"; };
    out += "| " + p.label + " | " + Ms(busy, traces) + " | " + cell(p.startup) + " | " +
           cell(p.hello) + " | " + cell(p.feed) + " | " + cell(p.Scheduling()) + " | " +
           cell(p.Framing()) + " | " + Ms(p.wait, traces) + " | " + Ms(p.process_cpu, traces) +
           " | " + Ms(p.gc_cpu, traces) + " |\n";
  }
  out +=
      "\nbusy = process start + Hello + Events + Finish + framing (the adapter's own wall time); "
      "upstream's scheduling = Events + Finish less informer feeding (its queue, cycles, flushes "
      "and bindings); framing = request frames read and unmarshalled, answers marshalled and "
      "written. Waiting covers the harness's work and, in a pair, the other side's replay. Process "
      "CPU (user and system, every thread, from the kernel) moves least with the machine's load; "
      "GC CPU is the Go runtime's estimate, on threads beside the work.\n";
  return out;
}

nlohmann::json ProfileToJson(const AdapterProfile& p) {
  return {{"label", p.label},
          {"runs", p.runs},
          {"startup", p.startup},
          {"wait", p.wait},
          {"decode", p.decode},
          {"hello", p.hello},
          {"feed", p.feed},
          {"events", p.events},
          {"finish", p.finish},
          {"encode", p.encode},
          {"send", p.send},
          {"cpu", p.cpu},
          {"gc_cpu", p.gc_cpu},
          {"process_cpu", p.process_cpu},
          {"scheduling", p.Scheduling()},
          {"busy", p.Busy()}};
}

}  // namespace schedcheck::bench
