#include "harness/cli/import_command.h"

#include <iostream>
#include <map>
#include <memory>

#include "harness/cli/keep_until_exit.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/seed_option.h"
#include "reference/api/rfc3339.h"
#include "traces/importers/importer.h"
#include "traces/output_path.h"
#include "traces/trace_format.h"
#include "traces/trace_writer.h"

namespace schedcheck::cli {
namespace {

// What the summary counts, record by record as they are written.
struct RecordCounts {
  std::map<std::string, int64_t> api;  // "Node ADDED" -> n
  int64_t records = 0, api_total = 0, bindings = 0, attempts = 0, nominations = 0, victims = 0;

  void Add(const trace::Record& r) {
    ++records;
    if (r.has_api()) {
      // The object's message name is its Kubernetes kind (reference/k8s/k8s.proto).
      const auto* field = r.api().GetDescriptor()->FindFieldByNumber(r.api().object_case());
      std::string kind = field != nullptr && field->message_type() != nullptr
                             ? field->message_type()->name()
                             : "none";
      ++api[kind + " " + trace::EventType_Name(r.api().type())];
      ++api_total;
    }
    bindings += r.has_binding() ? 1 : 0;
    attempts += r.has_attempt() ? 1 : 0;
    nominations += r.has_nomination() ? 1 : 0;
    victims += r.has_preemption() ? 1 : 0;
  }

  // "records: 12 (api 9: Node ADDED 3, Pod ADDED 6; observed bindings 2; observed attempts 1)",
  // then "; observed nominations N; observed victims M" when there are any.
  std::string Summary() const {
    std::string out = "records: " + std::to_string(records) + " (api " + std::to_string(api_total);
    std::string sep = ": ";
    for (const auto& [key, n] : api) {
      out += sep + key + " " + std::to_string(n);
      sep = ", ";
    }
    out += "; observed bindings " + std::to_string(bindings) + "; observed attempts " +
           std::to_string(attempts);
    if (nominations > 0) out += "; observed nominations " + std::to_string(nominations);
    if (victims > 0) out += "; observed victims " + std::to_string(victims);
    return out + ")\n";
  }
};

}  // namespace

int RunImport(const ImportCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck import: " << message << "\n";
    return 2;
  };
  std::vector<trace::NamedPath> inputs;
  for (const std::string& in : o.inputs) inputs.push_back({"INPUT", in});
  if (Outcome ok = trace::CheckOutputsDistinct(inputs, {{"-o", o.output}}); !ok)
    return fail(ok.message());
  trace::ImportOptions options;
  options.keep_annotations = o.keep_annotations;
  options.strip_bindings = !o.keep_bindings;
  options.arrival_only = o.arrival_only;
  options.shuffle_seed = o.shuffle_seed;
  options.target_gpu_share = o.target_gpu_share;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &options.limits); !ok)
    return fail(ok.message());
  if (!o.start_time.empty()) {
    auto start = reference::ParseRfc3339(o.start_time);
    if (!start.ok()) return fail("--start-time: " + start.message());
    options.start_unix_ns = *start;
  }
  if (o.output.empty()) return fail("-o: missing output path");
  if (!o.compat.empty() && o.compat != "1.27" && o.compat != "1.37")
    return fail("--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)");
  // Records are written as the importer finishes them (a day's capture is never held parsed
  // whole); the header, whose labels count what was dropped, goes first when all are in. The
  // file is WriteImported's, byte for byte; nothing is left at -o on failure.
  auto writer = trace::TraceWriter::Open(o.output, trace::Header(), {.header_last = true});
  if (!writer.ok()) return fail(writer.message());
  RecordCounts counts;
  auto result = trace::Import(o.format, o.inputs, options, [&](trace::Record&& r) {
    counts.Add(r);
    return (*writer)->Append(r);
  });
  if (!result.ok()) return fail(result.message());
  trace::Imported* imported = &KeepUntilExit(std::move(*result));
  if (!o.compat.empty()) {
    if (!imported->compat.empty() && imported->compat != o.compat) {
      imported->warnings.push_back("--compat " + o.compat + " differs from the capture's " +
                                   imported->compat_source + " (level " + imported->compat +
                                   "); the trace says " + o.compat);
    }
    imported->compat = o.compat;
    imported->compat_source = "--compat";
  }
  for (const std::string& warning : imported->warnings)
    err << "schedcheck import: warning: " << warning << "\n";
  if (Outcome ok = (*writer)->FinishWithHeader(trace::MakeImportHeader(o.format, *imported)); !ok)
    return fail(ok.message());
  if (!o.quiet) {
    out << "wrote " << o.output << " from " << o.inputs.size() << " input(s), format " << o.format
        << "\n";
    out << counts.Summary();
    out << "compat: "
        << (imported->compat.empty()
                ? std::string(trace::kCompatLevel) +
                      " (the default: the input shows no server version; say --compat 1.37 for "
                      "a v1.37 cluster)"
                : imported->compat + " (" + imported->compat_source + ")")
        << "\n";
    for (const auto& [key, value] : imported->labels)
      out << "label: " << key << "=" << value << "\n";
  }
  return 0;
}

void AddImportCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "import",
      "Import manifests, watch captures, simulator recordings, API server "
      "audit logs or the openb GPU trace into a trace (redacted to scheduling fields)");
  auto o = std::make_shared<ImportCommandOptions>();
  auto seed = std::make_shared<uint64_t>(0);
  auto share = std::make_shared<double>(0);
  auto strip = std::make_shared<bool>(false);
  cmd->add_option("--from", o->format, "input format: manifests, watch, kss, audit or openb")
      ->required()
      ->check(CLI::IsMember(trace::ImportFormats()));
  cmd->add_option("inputs", o->inputs, "input files or folders")->required();
  cmd->add_option("-o,--output", o->output, "output trace (written atomically)")->required();
  cmd->add_option("--keep-annotations", o->keep_annotations,
                  "annotation keys to keep (exact; several, or comma separated; put after the "
                  "inputs); all others are dropped")
      ->delimiter(',');
  cmd->add_option("--start-time", o->start_time,
                  "RFC 3339 time of t = 0 (manifests, openb: default 1970-01-01T00:00:00Z; watch, "
                  "kss, audit: default the "
                  "earliest event)");
  auto* keep =
      cmd->add_flag("--keep-bindings", o->keep_bindings,
                    "watch, kss, audit: keep the capture's bindings (nodeName changes) in the "
                    "API events; default: strip them "
                    "so the replayed scheduler places those pods itself (observed "
                    "bindings are kept as records either way)");
  cmd->add_flag("--strip-bindings", *strip, "watch, kss, audit: the default (see --keep-bindings)")
      ->excludes(keep);
  cmd->add_flag("--arrival-only", o->arrival_only, "openb: no deletions");
  auto* seed_opt = AddSeedOption(cmd, "--shuffle-seed", seed.get(),
                                 "openb: every pod arrives at t = 0 in a seeded random order");
  auto* share_opt = cmd->add_option(
      "--target-gpu-share", *share,
      "openb: resample pods (seeded by --shuffle-seed, default 1) until GPU requests reach "
      "this multiple of cluster GPU capacity, e.g. 1.3");
  cmd->add_option("--compat", o->compat,
                  "the trace's compatibility level, 1.27 or 1.37 (default: the capture's server "
                  "version, from a `kubectl version -o json` object among watch inputs, else "
                  "1.27); replay, diff and report use it");
  cmd->add_flag("-q,--quiet", o->quiet, "do not print the summary");
  AddLimitOption(cmd, &o->limits);
  cmd->callback([=] {
    if (seed_opt->count() > 0) o->shuffle_seed = *seed;
    if (share_opt->count() > 0) o->target_gpu_share = *share;
    *exit_code = RunImport(*o, std::cout, std::cerr);
  });
}

}  // namespace schedcheck::cli
