// RecordParser: a hand-written parser for serialized Records, two to three times faster than
// protobuf's generated parser when it decodes record after record into the same Record: it
// assigns the new record over the old one in place, reusing its strings, sub-messages, repeated
// elements and map entries, so a stream of similar records allocates almost nothing; it also has
// no parse context, no virtual dispatch per message and no UTF-8 decoder for ASCII strings. It
// fills the generated messages through their public accessors, so the result is an ordinary
// Record, equal to protobuf's parse of the bytes. One table per message (fast_record_parser.cc)
// names each field once; fast_parse_fields.h says what a table entry does.
//
// It handles the encodings protobuf serializers produce for every field of trace.proto and
// k8s.proto except google.protobuf.Value (a PodDisruptionBudget's minAvailable/maxUnavailable).
// What it does not handle (unknown fields, non-ASCII strings, repeated sub-messages that protobuf
// would merge, unusual encodings, malformed or truncated bytes) it leaves to protobuf: Parse then
// parses the bytes again with ParseFromArray, so its verdict and result are protobuf's in every
// case (fast_record_parser_test.cc checks this over the corpus, random records filling every
// field, record sequences decoded into one reused Record, and damaged bytes).
#ifndef SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_
#define SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_

#include <cstddef>
#include <memory>

#include "traces/trace.pb.h"

namespace schedcheck::trace {
namespace wire {
struct SpareMembers;
}  // namespace wire

class RecordParser {
 public:
  RecordParser();
  ~RecordParser();
  RecordParser(RecordParser&&) noexcept;
  RecordParser& operator=(RecordParser&&) noexcept;

  // Replaces *record with the Record serialized in data[0, size). Returns false when the bytes
  // do not parse (protobuf's verdict); *record is then unspecified. When *record is not on an
  // arena, the parts of an earlier record that the new one has no use for (say, the Pod of an API
  // event when a Binding replaces it) are kept here for the next record that needs them.
  bool Parse(const char* data, size_t size, Record* record);

  // The hand-written path alone: true when it handled every byte (then *record equals protobuf's
  // parse, whatever *record held before); false when Parse would fall back to protobuf (then
  // *record is partly assigned). For tests.
  bool ParseWithoutFallback(const char* data, size_t size, Record* record);

 private:
  std::unique_ptr<wire::SpareMembers> spares_;
  const Record* fell_back_into_ = nullptr;  // the Record protobuf's parser filled last, if any
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_FAST_RECORD_PARSER_H_
