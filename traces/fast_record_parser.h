// A hand-written parser for serialized Records, about twice as fast as protobuf's generated
// parser on trace records (no parse context, no virtual dispatch per message, no UTF-8 decoder for
// ASCII strings). It fills the same generated messages through their public accessors, so the
// result is an ordinary Record.
//
// It handles the encodings protobuf serializers produce for every field of trace.proto and
// k8s.proto except google.protobuf.Value (PodDisruptionBudget min/max). Whatever it does not
// handle (unknown fields, non-ASCII strings, unusual encodings, malformed or truncated bytes) it
// leaves to protobuf: ParseRecord then parses the bytes again with protobuf's own parser, so its
// result, success or failure, is protobuf's in every case (fast_record_parser_test.cc checks
// this over the corpus, random records and damaged bytes).
#ifndef SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_
#define SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_

#include <cstddef>

#include "traces/trace.pb.h"

namespace schedcheck::trace {

// Replaces *record with the Record serialized in data[0, size). Returns false when the bytes do
// not parse (protobuf's verdict); *record is then unspecified.
bool ParseRecord(const char* data, size_t size, Record* record);

// The hand-written path alone, merging into *record: true when it handled every byte (then the
// merge equals protobuf's MergeFromArray), false when ParseRecord would fall back to protobuf
// (then *record is partly filled). For tests.
bool FastMergeRecord(const char* data, size_t size, Record* record);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_
