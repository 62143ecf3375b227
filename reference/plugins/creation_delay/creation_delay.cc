#include "reference/plugins/creation_delay/creation_delay.h"

#include <charconv>

#include "reference/api/rfc3339.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> CreationDelay::New(const PluginArgs& args, const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty()))
    return Error{"CreationDelay takes no args"};
  return std::unique_ptr<Plugin>(std::make_unique<CreationDelay>(handle));
}

Status CreationDelay::PreFilter([[maybe_unused]] CycleState& state, const Pod& pod,
                                [[maybe_unused]] PreFilterResult* result) {
  const auto& annotations = pod.obj.metadata().annotations();
  auto it = annotations.find(std::string(kAnnotation));
  if (it == annotations.end()) return Status();
  int64_t seconds = 0;
  const std::string& text = it->second;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || ptr != text.data() + text.size() || seconds < 0) {
    return Status::Error("annotation " + std::string(kAnnotation) +
                         ": not a non-negative integer: \"" + text + "\"");
  }
  const std::string& created = pod.obj.metadata().creation_timestamp();
  if (created.empty()) return Status();  // no creation time known: nothing to wait for
  Result<int64_t> created_ns = ParseRfc3339(created);
  if (!created_ns.ok()) return Status::Error("metadata.creationTimestamp: " + created_ns.message());
  if (handle_.clock == nullptr) return Status::Error("CreationDelay needs a clock (replay) to run");
  int64_t now_unix_ns = handle_.epoch_unix_ns + handle_.clock->NowNs();
  if (now_unix_ns < *created_ns + seconds * kNanosPerSecond) {
    return Status(Code::kUnschedulable, "pod is younger than its creation delay of " + text + "s");
  }
  return Status();
}

}  // namespace schedcheck::reference
