// The hand-written parser agrees with protobuf's: on the corpus, on random records filling every
// field of every message (through reflection, so a field added to the protos is covered without
// touching this test), on merges of two records, on hand-made unusual encodings and on damaged
// bytes. "Agrees" means: whenever FastMergeRecord accepts bytes, protobuf accepts them too and
// the two messages are equal (compared both with MessageDifferencer and by their deterministic
// serializations); and ParseRecord, fallback included, always gives protobuf's verdict and result.
#include "traces/fast_record_parser.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "traces/sample_trace.h"
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

// Checks the contract on `bytes`; returns whether the hand-written path handled them.
bool ExpectAgreement(const std::string& bytes) {
  const google::protobuf::LogSilencer quiet;  // protobuf logs every invalid UTF-8 string it meets
  const Parsed expected = ProtobufParse(bytes);
  Record fast;
  const bool handled = FastMergeRecord(bytes.data(), bytes.size(), &fast);
  if (handled) {
    EXPECT_TRUE(expected.ok) << "hand parser accepted bytes protobuf rejects";
    if (expected.ok) {
      EXPECT_TRUE(MessageDifferencer::Equals(fast, expected.record))
          << "fast: " << fast.ShortDebugString() << "\nprotobuf: " << expected.record.ShortDebugString();
      EXPECT_EQ(SerializeDeterministic(fast), SerializeDeterministic(expected.record));
    }
  }
  Record via_fallback;
  via_fallback.mutable_binding()->set_pod("left over from an earlier record");
  const bool ok = ParseRecord(bytes.data(), bytes.size(), &via_fallback);
  EXPECT_EQ(ok, expected.ok);
  if (ok && expected.ok) {
    EXPECT_TRUE(MessageDifferencer::Equals(via_fallback, expected.record));
  }
  return handled;
}

// --- Random messages through reflection -------------------------------------------------------

class RandomFiller {
 public:
  explicit RandomFiller(uint32_t seed) : rng_(seed) {}

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
    static const std::vector<std::string> kPieces = {"", "a", "cpu", "100m", "zone-1", "k8s.io/x",
                                                     "2024-01-01T00:00:00Z", "é", "日本", "\x7f"};
    std::string s;
    const int n = Uniform(0, 3);
    for (int i = 0; i < n; ++i) s += kPieces[Uniform(0, static_cast<int>(kPieces.size()) - 1)];
    return s;
  }

  int64_t Int() {
    switch (Uniform(0, 4)) {
      case 0: return 0;
      case 1: return Uniform(-3, 300);
      case 2: return std::numeric_limits<int32_t>::min();
      case 3: return std::numeric_limits<int64_t>::max();
      default: return static_cast<int64_t>(rng_());
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
};

std::vector<std::string> RandomRecords(uint32_t seed, int n) {
  RandomFiller filler(seed);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    Record r;
    filler.Fill(&r, 0);
    out.push_back(SerializeDeterministic(r));
  }
  return out;
}

// --- Tests ------------------------------------------------------------------------------------

// google.protobuf.Value (a PodDisruptionBudget's minAvailable / maxUnavailable) is left to protobuf.
bool HoldsValueField(const Record& r) {
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
// message fields merge, scalars and map values are replaced, a oneof takes B's member.
TEST(FastRecordParserTest, ConcatenatedRecordsMergeLikeProtobuf) {
  const std::vector<std::string> records = RandomRecords(2, 400);
  for (size_t i = 0; i + 1 < records.size(); ++i) ExpectAgreement(records[i] + records[i + 1]);
  // Always the same object, so that message fields and maps really merge.
  Record a = ApiRecord(1, ADDED, MakePod("ns", "p", "1", "1Gi"));
  Record b = ApiRecord(2, MODIFIED, MakePod("ns", "q", "2", "2Gi"));
  (*b.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels())["app"] = "x";
  EXPECT_TRUE(ExpectAgreement(SerializeDeterministic(a) + SerializeDeterministic(b)));
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
      {"varint past 64 bits", Bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}),
       false},
      {"overlong tag", Bytes({0x88, 0x00, 0x05}), false},
      {"unknown field", Bytes({0x30, 0x01}), false},
      {"wrong wire type for time_ns", Bytes({0x09, 1, 2, 3, 4, 5, 6, 7, 8}), false},
      {"binding then queue: the oneof takes the last",
       Bytes({0x2a, 0x03, 0x0a, 0x01, 'p', 0x22, 0x03, 0x0a, 0x01, 'q'}), true},
      {"binding twice: merged", Bytes({0x2a, 0x03, 0x0a, 0x01, 'p', 0x2a, 0x03, 0x12, 0x01, 'n'}), true},
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
    const auto len = [](const std::string& s) { return std::string(1, static_cast<char>(s.size())); };
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
// and ParseRecord always returns protobuf's verdict.
TEST(FastRecordParserTest, TruncatedAndDamagedBytesAgree) {
  std::vector<std::string> records = RandomRecords(3, 150);
  for (const Record& r : MakeSampleTrace().records) records.push_back(SerializeDeterministic(r));
  std::mt19937 rng(4);
  int handled_prefixes = 0, handled_damaged = 0, damaged_inputs = 0;
  for (const std::string& bytes : records) {
    for (size_t cut = 0; cut < bytes.size(); ++cut) handled_prefixes += ExpectAgreement(bytes.substr(0, cut));
    if (bytes.empty()) continue;
    for (int i = 0; i < 20; ++i) {
      std::string damaged = bytes;
      const size_t at = rng() % damaged.size();
      switch (rng() % 3) {
        case 0: damaged[at] = static_cast<char>(damaged[at] ^ (1u << (rng() % 8))); break;
        case 1: damaged[at] = static_cast<char>(rng()); break;
        default: damaged.erase(at, 1); break;
      }
      handled_damaged += ExpectAgreement(damaged);
      ++damaged_inputs;
    }
  }
  // Both verdicts occur, so the contract is exercised on damaged bytes the hand parser accepts.
  EXPECT_GT(handled_prefixes, 100);
  EXPECT_GT(handled_damaged, 100);
  EXPECT_LT(handled_damaged, damaged_inputs);
  std::printf("prefixes handled %d; damaged handled %d of %d\n", handled_prefixes, handled_damaged, damaged_inputs);
}

}  // namespace
}  // namespace schedcheck::trace
