// The "scores" field of an attempt line in a JSON Lines decision log (docs/FORMATS.md#scores):
// written only when the attempt carries scores, so that logs replayed without `--scores` are
// unchanged, and read back with the writer's types checked.
#ifndef SCHEDCHECK_HARNESS_REPLAY_SCORES_JSON_H_
#define SCHEDCHECK_HARNESS_REPLAY_SCORES_JSON_H_

#include <string>

#include <nlohmann/json.hpp>

#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::replay {

// [{"node":"n1","total":250,"plugins":{"ImageLocality":0,"NodeResourcesFit":80,...}}, ...]
nlohmann::ordered_json ScoresJson(const trace::Attempt& attempt);

// Reads `scores` (the field's value) into attempt->scores. Errors name `where` and the element:
// "LINE: field scores[1].total: expected an integer, got "x"".
Outcome ParseScoresJson(const nlohmann::json& scores, const std::string& where,
                        trace::Attempt* attempt);

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_SCORES_JSON_H_
