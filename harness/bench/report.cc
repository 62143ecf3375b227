// The table and the JSON document of a benchmark run.
#include <cstdio>
#include <string>

#include "harness/bench/bench.h"

namespace schedcheck::bench {
namespace {

std::string Format(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, value);
  return buf;
}

std::string Cell(const std::string& text, int width) {
  std::string s = text;
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), ' ');
  return s + "  ";
}

}  // namespace

std::string FormatTable(const std::vector<WorkloadResult>& workloads,
                        const std::vector<TraceIoResult>& io) {
  std::string out;
  if (!workloads.empty()) {
    out +=
        "workload                     engine score%    nodes  initial measured    bound     pods/s "
        " measured_s   total_s  "
        "ns/pod/node  peak_rss_MiB\n";
    for (const WorkloadResult& w : workloads) {
      std::string name = w.workload;
      name.resize(28, ' ');
      out +=
          name + " " + Cell(std::string(reference::EngineName(w.engine)), 6) +
          Cell(SamplingName(w.sampling), 7) + Cell(std::to_string(w.params.nodes), 7) +
          Cell(std::to_string(w.params.initial_pods), 7) +
          Cell(std::to_string(w.params.measured_pods), 7) +
          Cell(std::to_string(w.measured_bound), 7) + Cell(Format("%.1f", w.pods_per_second), 9) +
          Cell(Format("%.3f", w.measured_seconds), 10) + Cell(Format("%.3f", w.total_seconds), 8) +
          Cell(Format("%.1f", w.ns_per_pod_per_node), 11) +
          Cell(Format("%.1f", w.peak_rss_bytes / 1048576.0), 12) + "\n";
    }
  }
  if (!io.empty()) {
    out +=
        "\ntrace i/o                      events     bytes  bytes/event  encode_events/s  "
        "decode_events/s\n";
    for (const TraceIoResult& t : io) {
      std::string name = t.workload;
      name.resize(28, ' ');
      out += name + " " + Cell(std::to_string(t.events), 8) + Cell(std::to_string(t.bytes), 8) +
             Cell(Format("%.1f", t.bytes_per_event), 11) +
             Cell(Format("%.0f", t.encode_events_per_second), 15) +
             Cell(Format("%.0f", t.decode_events_per_second), 15) + "\n";
    }
  }
  return out;
}

// percentageOfNodesToScore as configured: 100, or 0 for unset (upstream's adaptive default).
static int Percentage(Sampling s) { return s == Sampling::kAll ? 100 : 0; }

nlohmann::json ToJson(const std::vector<WorkloadResult>& workloads,
                      const std::vector<TraceIoResult>& io) {
  nlohmann::json doc = {{"workloads", nlohmann::json::array()},
                        {"trace_io", nlohmann::json::array()}};
  // The document-wide value when every workload ran with the same one (each also has its own).
  bool same = true;
  for (const WorkloadResult& w : workloads) same = same && w.sampling == workloads.front().sampling;
  if (same)
    doc["percentage_of_nodes_to_score"] =
        workloads.empty() ? 100 : Percentage(workloads.front().sampling);
  for (const WorkloadResult& w : workloads) {
    doc["workloads"].push_back({{"workload", w.workload},
                                {"percentage_of_nodes_to_score", Percentage(w.sampling)},
                                {"engine", reference::EngineName(w.engine)},
                                {"nodes", w.params.nodes},
                                {"initial_pods", w.params.initial_pods},
                                {"measured_pods", w.params.measured_pods},
                                {"seed", w.params.seed},
                                {"events", w.events},
                                {"measured_bound", w.measured_bound},
                                {"pods_per_second", w.pods_per_second},
                                {"measured_seconds", w.measured_seconds},
                                {"total_seconds", w.total_seconds},
                                {"generate_seconds", w.generate_seconds},
                                {"ns_per_pod_per_node", w.ns_per_pod_per_node},
                                {"peak_rss_bytes", w.peak_rss_bytes}});
  }
  for (const TraceIoResult& t : io) {
    doc["trace_io"].push_back({{"workload", t.workload},
                               {"events", t.events},
                               {"bytes", t.bytes},
                               {"bytes_per_event", t.bytes_per_event},
                               {"encode_events_per_second", t.encode_events_per_second},
                               {"decode_events_per_second", t.decode_events_per_second}});
  }
  return doc;
}

}  // namespace schedcheck::bench
