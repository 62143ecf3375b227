#include "harness/cli/trace_commands.h"

#include "reference/k8s/k8s_json.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver.h"
#include "google/protobuf/util/type_resolver_util.h"
#include "harness/cli/limit_option.h"
#include "nlohmann/json.hpp"
#include "reference/base/result.h"
#include "traces/output_path.h"
#include "traces/sample_trace.h"
#include "traces/trace_format.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace schedcheck::cli {
namespace {

namespace pb = google::protobuf;
using trace::Header;
using trace::ReadStatus;
using trace::Record;
using trace::TraceReader;

std::string StatusText(const pb::util::Status& status) {
  const auto m = status.message();
  return std::string(m.data(), m.size());
}

// Proto3 JSON of `message` with Kubernetes field names and sorted map keys.
Result<std::string> JsonOf(const pb::Message& message) {
  std::string json = k8s::ToJson(message);
  if (json.empty())
    return Error{"cannot print " + message.GetDescriptor()->full_name() + " as JSON"};
  return json;
}

pb::util::Status FromJson(const std::string& json, pb::Message* message) {
  pb::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  return pb::util::JsonStringToMessage(json, message, options);
}

// A text file streamed out as traces/output_path.h says: a regular file is written to
// "<file>.tmp.<pid>" and renamed onto it by Commit() (removed if never committed); a FIFO or device
// is written in place, a symlink followed, "-" is standard output.
class AtomicTextFile {
 public:
  explicit AtomicTextFile(std::string path) : path_(std::move(path)) {
    Result<trace::OutputTarget> target = trace::ResolveOutput(path_);
    if (!target.ok()) {
      error_ = target.message();
      return;
    }
    target_ = *target;
    if (target_.kind == trace::OutputTarget::Kind::kStdout) {
      stream_ = &std::cout;
      return;
    }
    write_path_ = Replaces() ? target_.path + ".tmp." + std::to_string(::getpid()) : target_.path;
    out_.open(write_path_, std::ios::binary | std::ios::trunc);
    if (!out_.is_open()) error_ = write_path_ + ": cannot create";
  }
  ~AtomicTextFile() {
    if (!committed_ && Replaces() && out_.is_open()) {
      out_.close();
      std::remove(write_path_.c_str());
    }
  }
  // "" when open; else why not.
  const std::string& error() const { return error_; }
  std::ostream& stream() { return *stream_; }
  Outcome Commit() {
    stream_->flush();
    bool good = stream_->good();
    if (stream_ == &out_) {
      out_.close();
      good = good && !out_.fail();
    }
    if (!good || (Replaces() && std::rename(write_path_.c_str(), target_.path.c_str()) != 0)) {
      return Error{path_ + ": cannot write the output file"};
    }
    committed_ = true;
    return Outcome::Ok();
  }

 private:
  bool Replaces() const { return target_.kind == trace::OutputTarget::Kind::kReplace; }

  std::string path_;
  trace::OutputTarget target_;
  std::string write_path_;
  std::string error_;
  std::ofstream out_;
  std::ostream* stream_ = &out_;
  bool committed_ = false;
};

const char* BodyName(const Record& r) {
  switch (r.body_case()) {
    case Record::kApi:
      return "api";
    case Record::kAttempt:
      return "attempt";
    case Record::kQueue:
      return "queue";
    case Record::kBinding:
      return "binding";
    case Record::kNomination:
      return "nomination";
    case Record::kPreemption:
      return "preemption";
    case Record::BODY_NOT_SET:
      return "empty";
  }
  return "unknown";
}

const char* ObjectKind(const trace::ApiEvent& e) {
  switch (e.object_case()) {
    case trace::ApiEvent::kPod:
      return "Pod";
    case trace::ApiEvent::kNode:
      return "Node";
    case trace::ApiEvent::kNamespace:
      return "Namespace";
    case trace::ApiEvent::kPriorityClass:
      return "PriorityClass";
    case trace::ApiEvent::kPodDisruptionBudget:
      return "PodDisruptionBudget";
    case trace::ApiEvent::kService:
      return "Service";
    case trace::ApiEvent::kReplicationController:
      return "ReplicationController";
    case trace::ApiEvent::kReplicaSet:
      return "ReplicaSet";
    case trace::ApiEvent::kStatefulSet:
      return "StatefulSet";
    case trace::ApiEvent::kPersistentVolume:
      return "PersistentVolume";
    case trace::ApiEvent::kPersistentVolumeClaim:
      return "PersistentVolumeClaim";
    case trace::ApiEvent::kStorageClass:
      return "StorageClass";
    case trace::ApiEvent::kCsiNode:
      return "CSINode";
    case trace::ApiEvent::kCsiDriver:
      return "CSIDriver";
    case trace::ApiEvent::kCsiStorageCapacity:
      return "CSIStorageCapacity";
    case trace::ApiEvent::kResourceClaim:
      return "ResourceClaim";
    case trace::ApiEvent::kResourceClaimTemplate:
      return "ResourceClaimTemplate";
    case trace::ApiEvent::kResourceSlice:
      return "ResourceSlice";
    case trace::ApiEvent::kDeviceClass:
      return "DeviceClass";
    case trace::ApiEvent::kDeviceTaintRule:
      return "DeviceTaintRule";
    case trace::ApiEvent::kWorkload:
      return "Workload";
    case trace::ApiEvent::kPodGroup:
      return "PodGroup";
    case trace::ApiEvent::OBJECT_NOT_SET:
      return "none";
  }
  return "unknown";
}

std::string Seconds(int64_t ns) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << static_cast<double>(ns) / 1e9;
  return s.str();
}

// Binary -> JSON Lines, onto `out`. Returns false (after printing the error) on damage.
bool WriteJsonLines(TraceReader& reader, std::ostream& out, std::ostream& err) {
  Result<std::string> header = JsonOf(reader.header());
  if (!header.ok()) {
    err << "header: " << header.message() << "\n";
    return false;
  }
  out << "{\"header\":" << *header << "}\n";
  Record record;
  ReadStatus status;
  while ((status = reader.Next(&record)) == ReadStatus::kRecord) {
    Result<std::string> json = JsonOf(record);
    if (!json.ok()) {
      err << "event " << reader.records_read() - 1 << ": " << json.message() << "\n";
      return false;
    }
    out << *json << "\n";
  }
  if (status == ReadStatus::kError) {
    out.flush();
    err << reader.error() << "\n";
    return false;
  }
  return true;
}

// If `line` is exactly {"header": {...}}, returns the inner object's JSON text.
std::optional<std::string> HeaderObject(const std::string& line) {
  if (k8s::JsonTooDeepAt(line) != std::string_view::npos) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.size() != 1 || !j.contains("header")) return std::nullopt;
  return j["header"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int JsonLinesToBinary(const std::string& in_path, const std::string& out_path, std::ostream& err,
                      const trace::InputLimits& limits) {
  std::ifstream in(in_path, std::ios::binary);
  if (!in) {
    err << in_path << ": cannot open\n";
    return kExitBadInput;
  }
  Header header;
  header.set_producer("schedcheck trace convert");
  header.set_compat(std::string(trace::kCompatLevel));
  std::string line;
  int64_t line_no = 0;
  bool have_line = false;
  bool any_line = false;  // a header line or a record
  // The first non-empty line may be the header.
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    have_line = true;
    any_line = true;
    if (std::optional<std::string> h = HeaderObject(line)) {
      header.Clear();
      if (pb::util::Status s = FromJson(*h, &header); !s.ok()) {
        err << in_path << ": line " << line_no << ": invalid header: " << StatusText(s) << "\n";
        return kExitBadInput;
      }
      const std::string where = in_path + ": line " + std::to_string(line_no) + ": header";
      if (Outcome ok = trace::CheckMessageLimits(header, limits, where); !ok) {
        err << ok.message() << "\n";
        return kExitBadInput;
      }
      have_line = false;
    }
    break;
  }
  if (!any_line) {
    // Nothing but blank lines: a 0-byte or blank file is not a trace (no header, no record).
    err << in_path
        << ": empty: neither a binary trace (no file header) nor JSON Lines (no header line, no "
           "record)\n";
    return kExitBadInput;
  }
  auto writer = trace::TraceWriter::Open(out_path, header);
  if (!writer.ok()) {
    err << writer.message() << "\n";
    return kExitBadInput;
  }
  Record record;
  while (have_line || std::getline(in, line)) {
    if (!have_line) ++line_no;
    have_line = false;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    record.Clear();
    if (pb::util::Status s = FromJson(line, &record); !s.ok()) {
      err << in_path << ": line " << line_no << ": invalid Record: " << StatusText(s) << "\n";
      return kExitBadInput;  // the writer's destructor removes its temporary file
    }
    const std::string where = in_path + ": line " + std::to_string(line_no);
    Outcome fits = (*writer)->records_written() >= limits.records
                       ? Outcome(trace::TooManyRecords(where, limits.records))
                       : trace::CheckMessageLimits(record, limits, where);
    if (!fits) {
      err << fits.message() << "\n";
      return kExitBadInput;
    }
    if (Outcome o = (*writer)->Append(record); !o.ok()) {
      err << in_path << ": line " << line_no << ": " << o.message() << "\n";
      return kExitBadInput;
    }
  }
  if (Outcome o = (*writer)->Finish(); !o.ok()) {
    err << o.message() << "\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace

std::string VersionString() {
  return "schedcheck " + std::string(kSchedcheckVersion) + " (trace format " +
         std::to_string(trace::kFormatVersion) + ", compat " + std::string(trace::kCompatLevel) +
         ")";
}

int TraceInfo(const std::string& path, std::ostream& out, std::ostream& err,
              const trace::InputLimits& limits) {
  Result<TraceReader> reader = TraceReader::Open(path, limits);
  if (!reader.ok()) {
    err << reader.message() << "\n";
    return kExitBadInput;
  }
  const Header& h = reader->header();
  out << "file: " << path << "\n"
      << "format_version: " << h.format_version() << "\n"
      << "producer: " << h.producer() << "\n"
      << "compat: " << h.compat() << "\n"
      << "seed: " << h.seed() << "\n"
      << "config_hash: " << h.config_hash() << "\n";
  const std::map<std::string, std::string> labels(h.labels().begin(), h.labels().end());
  for (const auto& [key, value] : labels) out << "label: " << key << "=" << value << "\n";

  std::map<std::string, int64_t> by_body;
  std::map<std::string, int64_t> by_kind_type;
  int64_t first_ns = 0, last_ns = 0;
  Record r;
  ReadStatus status;
  while ((status = reader->Next(&r)) == ReadStatus::kRecord) {
    if (reader->records_read() == 1) first_ns = last_ns = r.time_ns();
    first_ns = std::min(first_ns, r.time_ns());
    last_ns = std::max(last_ns, r.time_ns());
    ++by_body[BodyName(r)];
    if (r.has_api()) {
      ++by_kind_type[std::string(ObjectKind(r.api())) + " " +
                     trace::EventType_Name(r.api().type())];
    }
  }
  out << "frames: " << reader->frames_read() << "\n"
      << "records: " << reader->records_read() << "\n";
  for (const auto& [name, n] : by_body) out << "records." << name << ": " << n << "\n";
  for (const auto& [name, n] : by_kind_type) out << "api: " << name << ": " << n << "\n";
  out << "time_span_s: " << Seconds(last_ns - first_ns) << " (first " << Seconds(first_ns)
      << ", last " << Seconds(last_ns) << ")\n";
  if (status == ReadStatus::kError) {
    out << "damage: " << trace::DamageKindName(reader->damage()) << "\n";
    err << reader->error() << "\n";
    return kExitBadInput;
  }
  return 0;
}

int TraceCat(const std::string& path, std::ostream& out, std::ostream& err,
             const trace::InputLimits& limits) {
  Result<TraceReader> reader = TraceReader::Open(path, limits);
  if (!reader.ok()) {
    err << reader.message() << "\n";
    return kExitBadInput;
  }
  return WriteJsonLines(*reader, out, err) ? 0 : kExitBadInput;
}

int TraceConvert(const std::string& in_path, const std::string& out_path, std::ostream& err,
                 const trace::InputLimits& limits) {
  if (Outcome ok = trace::CheckOutputsDistinct({{"IN", in_path}}, {{"OUT", out_path}}); !ok) {
    err << ok.message() << "\n";
    return kExitBadInput;
  }
  std::ifstream probe(in_path, std::ios::binary);
  if (!probe) {
    err << in_path << ": cannot open\n";
    return kExitBadInput;
  }
  std::string magic(trace::kFileMagic.size(), '\0');
  probe.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  magic.resize(static_cast<size_t>(probe.gcount()));
  probe.close();
  if (magic != trace::kFileMagic) return JsonLinesToBinary(in_path, out_path, err, limits);

  Result<TraceReader> reader = TraceReader::Open(in_path, limits);
  if (!reader.ok()) {
    err << reader.message() << "\n";
    return kExitBadInput;
  }
  AtomicTextFile out(out_path);
  if (!out.error().empty()) {
    err << out.error() << "\n";
    return kExitBadInput;
  }
  if (!WriteJsonLines(*reader, out.stream(), err)) return kExitBadInput;
  if (Outcome o = out.Commit(); !o.ok()) {
    err << o.message() << "\n";
    return kExitBadInput;
  }
  return 0;
}

int TraceSample(const std::string& out_path, std::ostream& err) {
  if (Outcome o = trace::WriteTrace(out_path, trace::MakeSampleTrace()); !o.ok()) {
    err << o.message() << "\n";
    return kExitBadInput;
  }
  return 0;
}

void AddVersionCommand(CLI::App& app, int* exit_code) {
  CLI::App* version = app.add_subcommand("version", "Print the version and the trace format");
  version->callback([exit_code] {
    std::cout << VersionString() << "\n";
    *exit_code = 0;
  });
}

void AddTraceCommands(CLI::App& app, int* exit_code) {
  CLI::App* trace = app.add_subcommand("trace", "Inspect, convert and generate trace files");
  trace->require_subcommand(1);
  // --limit of info, cat and convert; a bad spec is bad input (exit 2).
  auto limit_specs = std::make_shared<std::vector<std::string>>();
  auto limits = [limit_specs, exit_code](trace::InputLimits* l) {
    Outcome ok = trace::ParseInputLimits(*limit_specs, l);
    if (!ok) {
      std::cerr << "schedcheck trace: " << ok.message() << "\n";
      *exit_code = kExitBadInput;
    }
    return ok.ok();
  };

  auto info_path = std::make_shared<std::string>();
  CLI::App* info = trace->add_subcommand(
      "info", "Header, counts by record type, object kind and event type, time span, frames");
  info->add_option("FILE", *info_path, "trace file")->required();
  AddLimitOption(info, limit_specs.get());
  info->callback([=] {
    trace::InputLimits l;
    if (limits(&l)) *exit_code = TraceInfo(*info_path, std::cout, std::cerr, l);
  });

  auto cat_path = std::make_shared<std::string>();
  CLI::App* cat = trace->add_subcommand(
      "cat", "Print the trace as JSON Lines: {\"header\":...} then one Record per line");
  cat->add_option("FILE", *cat_path, "trace file")->required();
  AddLimitOption(cat, limit_specs.get());
  cat->callback([=] {
    trace::InputLimits l;
    if (limits(&l)) *exit_code = TraceCat(*cat_path, std::cout, std::cerr, l);
  });

  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  CLI::App* convert = trace->add_subcommand(
      "convert", "Convert binary <-> JSON Lines (direction from the input's magic)");
  convert->add_option("IN", *in, "input: binary trace or JSON Lines")->required();
  convert->add_option("OUT", *out, "output, written atomically")->required();
  AddLimitOption(convert, limit_specs.get());
  convert->callback([=] {
    trace::InputLimits l;
    if (limits(&l)) *exit_code = TraceConvert(*in, *out, std::cerr, l);
  });

  auto sample_out = std::make_shared<std::string>();
  CLI::App* sample = trace->add_subcommand("sample", "Write the built-in sample trace");
  sample->add_option("OUT", *sample_out, "output trace file")->required();
  sample->callback([=] { *exit_code = TraceSample(*sample_out, std::cerr); });
}

}  // namespace schedcheck::cli
