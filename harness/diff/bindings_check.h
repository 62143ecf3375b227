// A decision log's bindings against its attempts: the check `diff` and `report` run on each log
// they load (harness/diff/load.h) so that a log that contradicts itself is refused instead of
// compared. The diff reads placements from the attempts; a log whose bind records say something
// else (a node no attempt chose, a pod no attempt scheduled, or no bindings at all) was edited,
// truncated or written by a broken writer, and comparing its attempts would hide that.
#ifndef SCHEDCHECK_HARNESS_DIFF_BINDINGS_CHECK_H_
#define SCHEDCHECK_HARNESS_DIFF_BINDINGS_CHECK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::diff {

// Checks the replay's own (not observed) records of `log`:
//   - every bind names a pod that an earlier attempt scheduled, and the node of the latest such
//     attempt;
//   - a log whose attempts scheduled pods that neither a bind nor a later Error attempt (a failed
//     binding cycle) followed has at least one bind record.
// A capture's observed records are not checked: a capture may bind a pod no attempt names.
// `where(i)` names record i of `log` in errors ("a.jsonl:12", "b.bin: record 40").
Outcome CheckBindings(const std::vector<trace::Record>& log,
                      const std::function<std::string(size_t)>& where);

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_BINDINGS_CHECK_H_
