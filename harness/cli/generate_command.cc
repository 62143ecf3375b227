#include "harness/cli/generate_command.h"
#include "harness/cli/seed_option.h"

#include <iostream>
#include <memory>
#include <string>

#include "harness/workloads/workloads.h"
#include "reference/k8s/k8s_json.h"
#include "traces/atomic_file.h"
#include "traces/output_path.h"
#include "traces/trace_writer.h"

namespace schedcheck::cli {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string CanonicalCommand(const GenerateOptions& o, const workloads::WorkloadParams& p) {
  std::string cmd = "schedcheck generate --shape " + o.shape + " --nodes " +
                    std::to_string(p.nodes) + " --initial " + std::to_string(p.initial_pods) +
                    " --measured " + std::to_string(p.measured_pods) + " --seed " +
                    std::to_string(p.seed) + " -o " + o.output;
  if (!o.config_output.empty()) cmd += " --config-out " + o.config_output;
  return cmd;
}

Outcome WriteJsonLines(const std::string& path, const trace::Trace& t) {
  std::string text = "{\"header\":" + k8s::ToJson(t.header) + "}\n";
  for (const trace::Record& r : t.records) {
    std::string line = k8s::ToJson(r);
    if (line.empty()) return Error{path + ": cannot print a record as JSON"};
    text += line;
    text += '\n';
  }
  return trace::WriteFileAtomically(path, text);
}

void ListShapes(std::ostream& out) {
  for (const workloads::ShapeInfo& s : workloads::Shapes()) {
    out << s.name << " (" << s.defaults.nodes << " nodes / " << s.defaults.initial_pods
        << " initial / " << s.defaults.measured_pods << " measured"
        << (s.config_yaml.empty() ? "" : ", needs --config-out") << "): " << s.description << "\n";
  }
}

}  // namespace

int RunGenerate(const GenerateOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck generate: " << message << "\n";
    return 2;
  };
  if (o.list) {
    ListShapes(out);
    return 0;
  }
  if (o.shape.empty()) return fail("--shape is required (see --list)");
  if (o.output.empty()) return fail("-o is required");
  if (Outcome ok =
          trace::CheckOutputsDistinct({}, {{"-o", o.output}, {"--config-out", o.config_output}});
      !ok)
    return fail(ok.message());
  const workloads::ShapeInfo* shape = workloads::FindShape(o.shape);
  if (shape == nullptr) {
    auto unknown = workloads::Generate(o.shape, {});
    return fail("--" + unknown.message());
  }
  workloads::WorkloadParams p = shape->defaults;
  p.nodes = o.nodes.value_or(p.nodes);
  p.initial_pods = o.initial.value_or(p.initial_pods);
  p.measured_pods = o.measured.value_or(p.measured_pods);
  p.seed = o.seed;
  auto workload = workloads::Generate(o.shape, p);
  if (!workload.ok()) return fail("--" + workload.message());
  (*workload->trace.header.mutable_labels())["generator"] = CanonicalCommand(o, p);
  if (!o.config_output.empty()) {
    if (shape->config_yaml.empty())
      return fail("--config-out: shape " + o.shape + " needs no configuration");
    if (Outcome ok = trace::WriteFileAtomically(o.config_output, shape->config_yaml); !ok)
      return fail(ok.message());
  }
  Outcome written = EndsWith(o.output, ".jsonl") ? WriteJsonLines(o.output, workload->trace)
                                                 : trace::WriteTrace(o.output, workload->trace);
  if (!written) return fail(written.message());
  if (!shape->config_yaml.empty() && o.config_output.empty()) {
    err << "note: shape " << o.shape
        << " needs a scheduler configuration; write it with --config-out\n";
  }
  return 0;
}

void AddGenerateCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "generate",
      "Write a generated workload (scheduler_perf shapes, requeue scenarios) as a trace");
  auto o = std::make_shared<GenerateOptions>();
  cmd->add_option("--shape", o->shape, "workload shape (see --list)");
  cmd->add_option("--nodes", o->nodes, "number of nodes (default: the shape's)");
  cmd->add_option("--initial", o->initial, "number of initial pods (default: the shape's)");
  cmd->add_option("--measured", o->measured, "number of measured pods (default: the shape's)");
  AddSeedOption(cmd, "--seed", &o->seed, "seed of every random choice (default 1)");
  cmd->add_option("-o,--output", o->output, "output trace: .jsonl for JSON Lines, else binary");
  cmd->add_option("--config-out", o->config_output,
                  "write the KubeSchedulerConfiguration the shape needs");
  cmd->add_flag("--list", o->list, "list the shapes with their default sizes");
  cmd->callback([=] { *exit_code = RunGenerate(*o, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
