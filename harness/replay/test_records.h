// Trace records written as JSON objects, for the replay tests.
#ifndef SCHEDCHECK_HARNESS_REPLAY_TEST_RECORDS_H_
#define SCHEDCHECK_HARNESS_REPLAY_TEST_RECORDS_H_

#include <cstdint>
#include <string>

#include "traces/trace.pb.h"

namespace schedcheck::replay {

// An ADDED record at `t_ns` holding the node (`kind` "node") or pod (any other kind) that `json`
// describes; a JSON the API mapping refuses is a test failure.
trace::Record AddedFromJson(int64_t t_ns, const std::string& kind, const std::string& json);

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_TEST_RECORDS_H_
