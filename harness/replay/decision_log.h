// The decisions of a replay, in the order they happened: scheduling attempts, queue transitions
// and bindings (trace.proto Attempt / QueueTransition / Binding records), written in the trace
// format and as the JSON Lines of docs/FORMATS.md#decision-logs.
#ifndef SCHEDCHECK_HARNESS_REPLAY_DECISION_LOG_H_
#define SCHEDCHECK_HARNESS_REPLAY_DECISION_LOG_H_

#include <functional>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::replay {

class DecisionLog {
 public:
  // Every record also goes to `sink` when set; `retain` = false keeps none in memory (long
  // benchmark runs, streaming consumers).
  void set_sink(std::function<void(const trace::Record&)> sink) { sink_ = std::move(sink); }
  void set_retain(bool retain) { retain_ = retain; }

  void Add(trace::Record record) {
    if (sink_) sink_(record);
    if (retain_) records_.push_back(std::move(record));
  }
  void AddQueue(int64_t t_ns, const std::string& pod, std::string_view from, std::string_view to,
                std::string_view cause);
  void AddBinding(int64_t t_ns, const std::string& pod, const std::string& node);
  const std::vector<trace::Record>& records() const { return records_; }

  // The whole log as JSON Lines, one record per line (byte-identical for identical logs).
  std::string ToJsonLines() const;
  Outcome WriteJsonLines(const std::string& path) const;
  Outcome WriteTrace(const std::string& path, const trace::Header& header) const;

 private:
  std::vector<trace::Record> records_;
  std::function<void(const trace::Record&)> sink_;
  bool retain_ = true;
};

// Seconds since the trace start as a JSON number with up to 9 decimals ("0", "1.5",
// "12.000000001").
std::string FormatSeconds(int64_t t_ns);
// One decision-log line (docs/FORMATS.md#decision-logs) for an attempt, queue, binding,
// nomination or preemption record (no trailing newline).
std::string DecisionJsonLine(const trace::Record& record);
// Parses a decision-log line back into a record. Errors name `where` and the field.
Result<trace::Record> ParseDecisionJsonLine(const std::string& line, const std::string& where);

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_DECISION_LOG_H_
