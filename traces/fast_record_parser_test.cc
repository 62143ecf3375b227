// The hand-written parser agrees with protobuf's: on the corpus, on random records filling every
// field of every message (through reflection, so a field added to the protos is covered without
// touching this test), on sequences of records decoded into one reused Record (a field the parser
// forgot to reset would leak from one record into the next), on concatenated records, on
// hand-made unusual encodings and on damaged bytes. "Agrees" means: whenever
// ParseWithoutFallback accepts bytes, protobuf accepts them too and the two messages are equal
// (compared both with MessageDifferencer and by their deterministic serializations); and Parse,
// fallback included, always gives protobuf's verdict and result.
#include "traces/fast_record_parser.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "traces/sample_trace.h"
#include "traces/trace.pb.h"
#include "traces/trace_file.h"
#include "traces/trace_format.h"

namespace schedcheck::trace {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::util::MessageDifferencer;

struct Parsed {
  bool ok = false;
  Record record;
};

Parsed ProtobufParse(const std::string& bytes) {
  Parsed p;
  p.ok = p.record.ParseFromString(bytes);
  return p;
}

void ExpectEqual(const Record& actual, const Record& expected) {
  EXPECT_TRUE(MessageDifferencer::Equals(actual, expected))
      << "hand parser: " << actual.ShortDebugString()
      << "\nprotobuf: " << expected.ShortDebugString();
  EXPECT_EQ(SerializeDeterministic(actual), SerializeDeterministic(expected));
}

// Checks the contract on `bytes`, parsed into `reused` (which holds whatever the previous call
// left there) with `parser`; returns whether the hand-written path handled them.
bool ExpectAgreement(const std::string& bytes, RecordParser& parser, Record& reused) {
  const google::protobuf::LogSilencer quiet;  // protobuf logs every invalid UTF-8 string it meets
  const Parsed expected = ProtobufParse(bytes);
  const bool handled = parser.ParseWithoutFallback(bytes.data(), bytes.size(), &reused);
  if (handled) {
    EXPECT_TRUE(expected.ok) << "hand parser accepted bytes protobuf rejects";
    if (expected.ok) ExpectEqual(reused, expected.record);
  }
  const bool ok = parser.Parse(bytes.data(), bytes.size(), &reused);
  EXPECT_EQ(ok, expected.ok);
  if (ok && expected.ok) ExpectEqual(reused, expected.record);
  return handled;
}

// The same, into a fresh Record and, separately, into one holding an unrelated record.
bool ExpectAgreement(const std::string& bytes) {
  RecordParser parser;
  Record fresh;
  const bool handled = ExpectAgreement(bytes, parser, fresh);
  Record used = ApiRecord(7, MODIFIED, MakePod("ns", "old", "1", "1Gi"));
  (*used.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels())["stale"] = "yes";
  EXPECT_EQ(ExpectAgreement(bytes, parser, used), handled);
  return handled;
}

// --- Random messages through reflection -------------------------------------------------------

class RandomFiller {
 public:
  // ascii_only: no non-ASCII strings (which the hand parser leaves to protobuf).
  explicit RandomFiller(uint32_t seed, bool ascii_only = false)
      : rng_(seed), ascii_only_(ascii_only) {}

  void Fill(Message* m, int depth) {
    const auto* d = m->GetDescriptor();
    for (int i = 0; i < d->oneof_decl_count(); ++i) {  // one member of each oneof, or none
      const auto* oneof = d->oneof_decl(i);
      const int pick = Uniform(0, oneof->field_count());
      if (pick < oneof->field_count()) FillField(m, oneof->field(pick), depth);
    }
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      if (f->real_containing_oneof() != nullptr) continue;
      if (Uniform(0, 3) == 0) continue;  // leave some fields unset
      FillField(m, f, depth);
    }
  }

  std::mt19937& rng() { return rng_; }

 private:
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  std::string String() {
    static const std::vector<std::string> kPieces = {
        "", "a", "cpu", "100m", "zone-1", "k8s.io/x", "2024-01-01T00:00:00Z", "\x7f", "é", "日本"};
    std::string s;
    const int n = Uniform(0, 3);
    const int last =
        static_cast<int>(kPieces.size()) - (ascii_only_ ? 3 : 1);  // the last 2 are not
    for (int i = 0; i < n; ++i) s += kPieces[Uniform(0, last)];
    return s;
  }

  int64_t Int() {
    switch (Uniform(0, 4)) {
      case 0:
        return 0;
      case 1:
        return Uniform(-3, 300);
      case 2:
        return std::numeric_limits<int32_t>::min();
      case 3:
        return std::numeric_limits<int64_t>::max();
      default:
        return static_cast<int64_t>(rng_());
    }
  }

  void FillField(Message* m, const FieldDescriptor* f, int depth) {
    const auto* r = m->GetReflection();
    const int count = f->is_repeated() ? Uniform(0, 3) : 1;
    for (int i = 0; i < count; ++i) {
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_MESSAGE:
          if (depth >= 12) return;
          Fill(f->is_repeated() ? r->AddMessage(m, f) : r->MutableMessage(m, f), depth + 1);
          break;
        case FieldDescriptor::CPPTYPE_STRING:
          f->is_repeated() ? r->AddString(m, f, String()) : r->SetString(m, f, String());
          break;
        case FieldDescriptor::CPPTYPE_INT32:
          f->is_repeated() ? r->AddInt32(m, f, static_cast<int32_t>(Int()))
                           : r->SetInt32(m, f, static_cast<int32_t>(Int()));
          break;
        case FieldDescriptor::CPPTYPE_INT64:
          f->is_repeated() ? r->AddInt64(m, f, Int()) : r->SetInt64(m, f, Int());
          break;
        case FieldDescriptor::CPPTYPE_BOOL:
          f->is_repeated() ? r->AddBool(m, f, Uniform(0, 1)) : r->SetBool(m, f, Uniform(0, 1));
          break;
        case FieldDescriptor::CPPTYPE_ENUM:
          f->is_repeated() ? r->AddEnumValue(m, f, static_cast<int>(Int()))
                           : r->SetEnumValue(m, f, static_cast<int>(Int()));
          break;
        case FieldDescriptor::CPPTYPE_DOUBLE:  // google.protobuf.Value's number
          r->SetDouble(m, f, static_cast<double>(Int()) / 4);
          break;
        default:
          FAIL() << "RandomFiller does not fill " << f->full_name();
      }
    }
  }

  std::mt19937 rng_;
  bool ascii_only_;
};

std::vector<std::string> RandomRecords(uint32_t seed, int n, bool ascii_only = false) {
  RandomFiller filler(seed, ascii_only);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    Record r;
    filler.Fill(&r, 0);
    out.push_back(SerializeDeterministic(r));
  }
  return out;
}

// --- Tests ------------------------------------------------------------------------------------

// google.protobuf.Value (a PodDisruptionBudget's minAvailable / maxUnavailable), the storage
// kinds (ApiEvent members 12-17), the DRA kinds (18-22), Workloads and PodGroups (23, 24) are
// left to protobuf.
bool HoldsValueField(const Record& r) {
  const trace::ApiEvent& api = r.api();
  if (api.has_persistent_volume() || api.has_persistent_volume_claim() || api.has_storage_class() ||
      api.has_csi_node() || api.has_csi_driver() || api.has_csi_storage_capacity() ||
      api.has_resource_claim() || api.has_resource_claim_template() || api.has_resource_slice() ||
      api.has_device_class() || api.has_device_taint_rule() || api.has_workload() ||
      api.has_pod_group()) {
    return true;
  }
  if (!r.api().has_pod_disruption_budget()) return false;
  const auto& spec = r.api().pod_disruption_budget().spec();
  return spec.has_min_available() || spec.has_max_unavailable();
}

TEST(FastRecordParserTest, CorpusRecordsTakeTheFastPathAndAgree) {
  int files = 0, records = 0;
  for (const auto& entry : std::filesystem::directory_iterator("traces/corpus")) {
    if (entry.path().extension() != ".jsonl") continue;
    auto trace = LoadTrace(entry.path().string());
    ASSERT_TRUE(trace.ok()) << trace.message();
    ++files;
    for (const Record& record : trace->records) {
      ++records;
      EXPECT_EQ(ExpectAgreement(SerializeDeterministic(record)), !HoldsValueField(record))
          << record.ShortDebugString();
    }
  }
  EXPECT_GT(files, 5);
  EXPECT_GT(records, 500);
}

TEST(FastRecordParserTest, SampleTraceRecordsAgree) {
  for (const Record& record : MakeSampleTrace().records) {
    EXPECT_TRUE(ExpectAgreement(SerializeDeterministic(record)));
  }
}

TEST(FastRecordParserTest, RandomRecordsOverEveryFieldAgree) {
  int handled = 0;
  const std::vector<std::string> records = RandomRecords(1, 3000);
  for (const std::string& bytes : records) handled += ExpectAgreement(bytes);
  std::printf("random records handled %d of %zu\n", handled, records.size());
  // Most random records hold a non-ASCII string or a google.protobuf.Value somewhere (fallback);
  // the rest must be handled, so both paths are exercised.
  EXPECT_GT(handled, 200);
  EXPECT_LT(handled, 3000);
}

TEST(FastRecordParserTest, NegativeNumbersTakeTheFastPath) {
  Record r;
  r.set_time_ns(-1);
  r.mutable_attempt()->set_pod("ns/p");
  r.mutable_attempt()->set_attempt(-7);
  r.mutable_attempt()->set_result(static_cast<AttemptResult>(-2));
  r.mutable_attempt()->add_ties("a");
  r.mutable_attempt()->add_ties("");
  r.mutable_attempt()->set_observed(true);
  EXPECT_TRUE(ExpectAgreement(SerializeDeterministic(r)));
}

// A serialization of A followed by one of B parses as A merged with B: repeated fields append,
// message fields merge, scalars and map values are replaced, a oneof takes B's member. The hand
// parser leaves most of these to protobuf (a message field met twice); the result is the same.
TEST(FastRecordParserTest, ConcatenatedRecordsMergeLikeProtobuf) {
  const std::vector<std::string> records = RandomRecords(2, 400);
  for (size_t i = 0; i + 1 < records.size(); ++i) ExpectAgreement(records[i] + records[i + 1]);
  // Always the same object, so that message fields and maps really merge.
  Record a = ApiRecord(1, ADDED, MakePod("ns", "p", "1", "1Gi"));
  Record b = ApiRecord(2, MODIFIED, MakePod("ns", "q", "2", "2Gi"));
  (*b.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels())["app"] = "x";
  EXPECT_FALSE(ExpectAgreement(SerializeDeterministic(a) + SerializeDeterministic(b)));
  // Only scalars and repeated strings repeated: handled.
  Record c, d;
  c.set_time_ns(1);
  d.set_time_ns(2);
  c.mutable_attempt()->add_ties("a");
  EXPECT_TRUE(ExpectAgreement(SerializeDeterministic(d) + SerializeDeterministic(c)));
}

// One Record reused over records of the same kind with different fields set, then over all
// kinds interleaved: every field the parser must reset between two records gets the chance to
// leak (the filler sets each field in about two records of three).
// Records the parser leaves to protobuf by design: an attempt's recorded scores, the DRA kinds,
// Workloads and PodGroups (fast_record_parser.cc names them in their tables only so that a reused
// record drops them).
bool LeftToProtobuf(const std::string& bytes) {
  Record r;
  if (!r.ParseFromString(bytes)) return false;
  if (r.has_attempt()) return r.attempt().scores_size() > 0;
  if (!r.has_api()) return false;
  const ApiEvent& e = r.api();
  return e.has_resource_claim() || e.has_resource_claim_template() || e.has_resource_slice() ||
         e.has_device_class() || e.has_device_taint_rule() || e.has_workload() || e.has_pod_group();
}

TEST(FastRecordParserTest, OneRecordReusedOverRandomRecordsAgrees) {
  const std::vector<std::string> records = RandomRecords(5, 4000, /*ascii_only=*/true);
  std::map<std::pair<int, int>, std::vector<std::string>> by_kind;  // (body, object) -> records
  for (const std::string& bytes : records) {
    Record r;
    ASSERT_TRUE(r.ParseFromString(bytes));
    by_kind[{r.body_case(), r.api().object_case()}].push_back(bytes);
  }
  EXPECT_GE(by_kind.size(), 9u);  // no body, six bodies, five API objects (one also "no body")
  // Among the records the parser is meant to take: how many it took.
  int handled = 0, meant = 0;
  auto agree = [&](const std::string& bytes, RecordParser& parser, Record& reused) {
    const bool fast = ExpectAgreement(bytes, parser, reused);
    if (LeftToProtobuf(bytes)) return;
    ++meant;
    handled += fast;
  };
  for (const auto& [kind, same_kind] : by_kind) {
    RecordParser parser;
    Record reused;
    for (const std::string& bytes : same_kind) agree(bytes, parser, reused);
  }
  RecordParser parser;
  Record reused;
  for (const std::string& bytes : records) agree(bytes, parser, reused);
  // All but the records holding a google.protobuf.Value take the fast path (7 in 8 when only
  // those kinds existed: 7000 of the 8000 parses).
  EXPECT_GT(handled * 8, meant * 7) << handled << " of " << meant;
}

TEST(FastRecordParserTest, CorpusDecodedIntoOneRecordAgrees) {
  RecordParser parser;
  Record reused;
  for (const auto& entry : std::filesystem::directory_iterator("traces/corpus")) {
    if (entry.path().extension() != ".jsonl") continue;
    auto trace = LoadTrace(entry.path().string());
    ASSERT_TRUE(trace.ok()) << trace.message();
    for (const Record& record : trace->records) {
      ExpectAgreement(SerializeDeterministic(record), parser, reused);
    }
  }
}

// Maps: the same keys again (values overwritten in place), other keys, fewer or more keys, more
// entries than the parser collects before refilling (16), and a key written twice.
TEST(FastRecordParserTest, MapsReassignedOverEachOtherAgree) {
  const auto pod_with_labels = [](const std::vector<std::pair<std::string, std::string>>& labels) {
    Record r = ApiRecord(1, ADDED, MakePod("ns", "p", "1", "1Gi"));
    auto* map = r.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels();
    for (const auto& [k, v] : labels) (*map)[k] = v;
    return SerializeDeterministic(r);
  };
  std::vector<std::pair<std::string, std::string>> many, many_other;
  for (int i = 0; i < 20; ++i) {
    many.emplace_back("k" + std::to_string(i), "v");
    many_other.emplace_back("k" + std::to_string(i + 3), "w");
  }
  std::vector<std::pair<std::string, std::string>> seventeen(many.begin(), many.begin() + 17);
  const std::vector<std::string> sequence = {
      pod_with_labels({{"a", "1"}, {"b", "2"}}),
      pod_with_labels({{"a", "3"}, {"b", "4"}}),
      pod_with_labels({{"a", "3"}, {"c", "4"}}),
      pod_with_labels({{"a", "5"}}),
      pod_with_labels({{"a", "5"}, {"b", "6"}, {"c", "7"}}),
      pod_with_labels({}),
      pod_with_labels(many),
      pod_with_labels(many),
      pod_with_labels(many_other),
      pod_with_labels(seventeen),
      pod_with_labels({{"a", "1"}, {"b", "2"}}),
  };
  RecordParser parser;
  Record reused;
  for (const std::string& bytes : sequence) EXPECT_TRUE(ExpectAgreement(bytes, parser, reused));

  // A key written twice (not what a serializer writes, but valid): the later value wins, and the
  // map must not keep a stale key whose count happened to match.
  const std::string twice = pod_with_labels({{"a", "1"}, {"b", "2"}});
  std::string meta_entries;
  for (const char* value : {"x", "y"}) {
    k8s::ObjectMeta meta;
    (*meta.mutable_labels())["a"] = value;
    meta_entries += SerializeDeterministic(meta);
  }
  k8s::ObjectMeta merged;
  ASSERT_TRUE(merged.ParseFromString(meta_entries));
  EXPECT_EQ(merged.labels().at("a"), "y");
  EXPECT_TRUE(ExpectAgreement(twice, parser, reused));  // leaves {a, b} in the map
  k8s::Pod pod = MakePod("ns", "p", "1", "1Gi");
  pod.clear_metadata();
  const std::string pod_bytes = SerializeDeterministic(pod) + "\x1a" +
                                std::string(1, static_cast<char>(meta_entries.size())) +
                                meta_entries;
  ApiEvent api;
  api.set_type(ADDED);
  const std::string api_bytes = SerializeDeterministic(api) + "\x12" +
                                std::string(1, static_cast<char>(pod_bytes.size())) + pod_bytes;
  const std::string record_bytes =
      "\x12" + std::string(1, static_cast<char>(api_bytes.size())) + api_bytes;
  EXPECT_TRUE(ExpectAgreement(record_bytes, parser, reused));
  EXPECT_EQ(reused.api().pod().metadata().labels().size(), 1u);
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

TEST(FastRecordParserTest, UnusualEncodingsAgree) {
  struct Case {
    const char* name;
    std::string bytes;
    bool handled;  // by the hand-written path
  };
  const std::vector<Case> cases = {
      {"empty record", "", true},
      {"time_ns twice: the last wins", Bytes({0x08, 0x05, 0x08, 0x07}), true},
      {"negative int64 in ten bytes",
       Bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), true},
      {"overlong varint value", Bytes({0x08, 0x85, 0x80, 0x00}), true},
      {"varint past 64 bits",
       Bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}), false},
      {"overlong tag", Bytes({0x88, 0x00, 0x05}), false},
      {"unknown field", Bytes({0x30, 0x01}), false},
      {"wrong wire type for time_ns", Bytes({0x09, 1, 2, 3, 4, 5, 6, 7, 8}), false},
      // Protobuf merges a message field met twice, and a oneof takes the last member: left to it.
      {"binding then queue", Bytes({0x2a, 0x03, 0x0a, 0x01, 'p', 0x22, 0x03, 0x0a, 0x01, 'q'}),
       false},
      {"binding twice", Bytes({0x2a, 0x03, 0x0a, 0x01, 'p', 0x2a, 0x03, 0x12, 0x01, 'n'}), false},
      {"non-ASCII string", Bytes({0x2a, 0x04, 0x0a, 0x02, 0xc3, 0xa9}), false},
      {"invalid UTF-8 string", Bytes({0x2a, 0x03, 0x0a, 0x01, 0xff}), false},
      {"length past the end", Bytes({0x2a, 0x05, 0x0a, 0x01, 'p'}), false},
      {"inner length past the outer", Bytes({0x2a, 0x03, 0x0a, 0x04, 'p'}), false},
      {"end-group tag", Bytes({0x0c}), false},
      {"tag zero", Bytes({0x00}), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ExpectAgreement(c.bytes), c.handled);
  }
}

// Map entries: key then value is handled; other layouts are left to protobuf; a key seen twice
// keeps the later value either way.
TEST(FastRecordParserTest, MapEntryLayoutsAgree) {
  // Record{api{pod{metadata{<entries>}}}} around the given ObjectMeta bytes.
  const auto wrap = [](const std::string& meta) {
    const auto len = [](const std::string& s) {
      return std::string(1, static_cast<char>(s.size()));
    };
    const std::string pod = "\x1a" + len(meta) + meta;
    const std::string api = "\x12" + len(pod) + pod;
    return "\x12" + len(api) + api;
  };
  const std::string kv = Bytes({0x2a, 0x06, 0x0a, 0x01, 'k', 0x12, 0x01, 'v'});
  const std::string kv2 = Bytes({0x2a, 0x06, 0x0a, 0x01, 'k', 0x12, 0x01, 'w'});
  const std::string vk = Bytes({0x2a, 0x06, 0x12, 0x01, 'v', 0x0a, 0x01, 'k'});
  const std::string key_only = Bytes({0x2a, 0x03, 0x0a, 0x01, 'k'});
  const std::string value_only = Bytes({0x2a, 0x03, 0x12, 0x01, 'v'});
  const std::string empty_entry = Bytes({0x2a, 0x00});
  const std::string extra_field = Bytes({0x2a, 0x08, 0x0a, 0x01, 'k', 0x12, 0x01, 'v', 0x18, 0x01});
  EXPECT_TRUE(ExpectAgreement(wrap(kv)));
  EXPECT_TRUE(ExpectAgreement(wrap(kv + kv2)));
  EXPECT_FALSE(ExpectAgreement(wrap(vk)));
  EXPECT_FALSE(ExpectAgreement(wrap(key_only)));
  EXPECT_FALSE(ExpectAgreement(wrap(value_only)));
  EXPECT_FALSE(ExpectAgreement(wrap(empty_entry)));
  EXPECT_FALSE(ExpectAgreement(wrap(extra_field)));
  EXPECT_FALSE(ExpectAgreement(wrap(kv + vk)));
}

// Every prefix of a record, and random single-byte damage: the hand-written path never reads
// outside the bytes (run under ASan/valgrind to see it), never accepts what protobuf rejects,
// and Parse always returns protobuf's verdict.
TEST(FastRecordParserTest, TruncatedAndDamagedBytesAgree) {
  std::vector<std::string> records = RandomRecords(3, 150);
  for (const Record& r : MakeSampleTrace().records) records.push_back(SerializeDeterministic(r));
  std::mt19937 rng(4);
  int handled_prefixes = 0, handled_damaged = 0, damaged_inputs = 0;
  for (const std::string& bytes : records) {
    for (size_t cut = 0; cut < bytes.size(); ++cut)
      handled_prefixes += ExpectAgreement(bytes.substr(0, cut));
    if (bytes.empty()) continue;
    for (int i = 0; i < 20; ++i) {
      std::string damaged = bytes;
      const size_t at = rng() % damaged.size();
      switch (rng() % 3) {
        case 0:
          damaged[at] = static_cast<char>(damaged[at] ^ (1u << (rng() % 8)));
          break;
        case 1:
          damaged[at] = static_cast<char>(rng());
          break;
        default:
          damaged.erase(at, 1);
          break;
      }
      handled_damaged += ExpectAgreement(damaged);
      ++damaged_inputs;
    }
  }
  // Both verdicts occur, so the contract is exercised on damaged bytes the hand parser accepts.
  EXPECT_GT(handled_prefixes, 100);
  EXPECT_GT(handled_damaged, 100);
  EXPECT_LT(handled_damaged, damaged_inputs);
  std::printf("prefixes handled %d; damaged handled %d of %d\n", handled_prefixes, handled_damaged,
              damaged_inputs);
}

}  // namespace
}  // namespace schedcheck::trace
