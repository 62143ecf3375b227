// Internal to the hand-written record parser (fast_record_parser.h): the field tables that drive
// it and the field kinds they are made of.
//
// Each message is parsed by one table that names each of its fields once, by the field's number
// and the name its generated accessors use (fields in the order of the .proto):
//   bool Assign(WireCursor c, Toleration* m, SpareMembers* s) {
//     using M = Toleration;
//     return Table<WIRE_FIELD(1, key), WIRE_FIELD(2, operator_), WIRE_FIELD(3, value),
//                  WIRE_FIELD(4, effect), WIRE_SCALAR(5, toleration_seconds)>::Assign(c, m, s);
//   }
// WIRE_SCALAR is an integer, enum or bool field; WIRE_FIELD any other field: a string, a message,
// a repeated field or a map<string, string>, told apart by what its mutable_ accessor returns;
// WIRE_ONEOF a message member of a oneof.
//
// Table::Assign makes the message equal to the one serialized in the cursor, whatever it held
// before, reusing what it already holds: strings keep their buffers, present sub-messages and
// repeated elements are assigned in place, and a map whose keys are the same as before only has
// its values overwritten. That reuse is the point: decoding record after record into one Record
// then allocates almost nothing. So every field the bytes do not hold is reset at the end, from
// the same table (a field missing from a table makes the bytes fall back instead: an unknown
// field).
//
// Assign returns false as soon as it meets anything it does not handle: an unknown field or wire
// type, a non-ASCII string, a map entry not written as exactly key then value, a sub-message or
// oneof written more than once (protobuf would merge them), a google.protobuf.Value field, or
// malformed bytes. The message is then partly assigned; the caller parses the bytes again with
// protobuf, which clears it first.
#ifndef SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_
#define SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "google/protobuf/map.h"
#include "google/protobuf/message.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "reference/k8s/k8s.pb.h"
#include "traces/trace.pb.h"
#include "traces/wire_cursor.h"

namespace schedcheck::trace::wire {

// Oneof members detached from a heap-allocated Record when a record of another kind replaced
// them, kept (indexed by field number) to be reattached by the next record of their kind instead
// of being reallocated.
struct SpareMembers {
  using Slots = std::array<std::unique_ptr<google::protobuf::Message>, 32>;
  Slots record_body;  // Record.body
  Slots api_object;   // ApiEvent.object
  Slots& For(const Record*) { return record_body; }
  Slots& For(const ApiEvent*) { return api_object; }
};

// The field numbers (1 to 30) met so far in one message; bit 31 notes a oneof member.
class SeenFields {
 public:
  static constexpr int kOneof = 31;
  // The field numbers a table may name: 1 to 30, and 100 to 131 (fields added to a message after
  // its first 30 numbers, such as PodStatus's DRA fields).
  static constexpr bool Holds(int field) {
    return (field > 0 && field < kOneof) || (field >= 100 && field < 132);
  }
  // Notes `field`; true. For fields where a repeat simply replaces (scalars, strings).
  bool Add(int field) {
    bits_ |= Bit(field);
    return true;
  }
  // Notes `field`; false if it was met before (a repeated sub-message merges: left to protobuf).
  bool First(int field) {
    const bool first = !Has(field);
    bits_ |= Bit(field);
    return first;
  }
  bool Has(int field) const { return (bits_ & Bit(field)) != 0; }

 private:
  // Bits 1 to 31: fields 1 to 30 and kOneof; bits 32 to 63: fields 100 to 131.
  static constexpr uint64_t Bit(int field) {
    return uint64_t{1} << (field < 100 ? field : field - 100 + 32);
  }
  uint64_t bits_ = 0;
};

// A proto3 string field (ASCII only: see IsAscii), replacing *out.
inline bool ReadString(WireCursor& c, std::string* out) {
  std::string_view bytes;
  if (!c.Bytes(&bytes) || !IsAscii(bytes.data(), bytes.size())) return false;
  out->assign(bytes.data(), bytes.size());
  return true;
}

// A message field assigned into *m.
template <typename Message>
inline bool ReadMessage(WireCursor& c, Message* m, SpareMembers* spares) {
  std::string_view bytes;
  return c.Bytes(&bytes) && Assign(WireCursor(bytes.data(), bytes.size()), m, spares);
}

// Assigns a repeated field element by element, reusing the elements it already has; Finish drops
// the elements left over from before (cleared and kept for reuse by RepeatedPtrField).
template <typename T>
class RepeatedFill {
 public:
  explicit RepeatedFill(google::protobuf::RepeatedPtrField<T>* field) : field_(field) {}
  T* Next() { return used_ < field_->size() ? field_->Mutable(used_++) : (++used_, field_->Add()); }
  void Finish() {
    while (field_->size() > used_) field_->RemoveLast();
  }

 private:
  google::protobuf::RepeatedPtrField<T>* field_;
  int used_ = 0;
};

// Assigns a map<string, string> from its entries. The entries are collected (as views of the
// input) and applied by Finish: when the map already holds exactly those keys, only the values
// are overwritten (no allocation); otherwise it is cleared and refilled. A map with more entries
// than fit is refilled as it is read.
class StringMapFill {
 public:
  using StringMap = google::protobuf::Map<std::string, std::string>;
  explicit StringMapFill(StringMap* map) : map_(map) {}

  // One entry, written as key (field 1) then value (field 2), as every protobuf serializer writes
  // map entries; other layouts are left to protobuf.
  bool Read(WireCursor& c) {
    std::string_view entry, key, value;
    if (!c.Bytes(&entry)) return false;
    WireCursor e(entry.data(), entry.size());
    uint32_t tag = 0;
    if (!e.Tag(&tag) || tag != LenTag(1) || !e.Bytes(&key)) return false;
    if (!e.Tag(&tag) || tag != LenTag(2) || !e.Bytes(&value) || !e.done()) return false;
    if (!IsAscii(key.data(), key.size()) || !IsAscii(value.data(), value.size())) return false;
    if (refilling_) {
      Put(key, value);
    } else if (pending_ < kMaxPending) {
      entries_[pending_++] = {key.data(), key.size(), value.data(), value.size()};
    } else {
      Refill();
      Put(key, value);
    }
    return true;
  }

  // Applies the collected entries (a map field not met at all ends empty).
  void Finish() {
    if (refilling_) return;
    if (map_->size() == static_cast<size_t>(pending_) && KeysDistinct()) {
      bool all_found = true;
      for (int i = 0; i < pending_ && all_found; ++i) {
        auto it = map_->find(entries_[i].Key());
        if (it == map_->end()) {
          all_found = false;
        } else {
          it->second.assign(entries_[i].value, entries_[i].value_size);
        }
      }
      if (all_found) return;
    }
    Refill();
  }

 private:
  static constexpr int kMaxPending = 16;
  // Plain pointers and sizes, not string_views: the array is then left uninitialized rather than
  // zeroed on every construction (one StringMapFill per map field per message).
  struct Entry {
    const char* key;
    size_t key_size;
    const char* value;
    size_t value_size;
    std::string_view Key() const { return {key, key_size}; }
    std::string_view Value() const { return {value, value_size}; }
  };

  // A later entry with the same key replaces an earlier one, as in protobuf.
  void Put(std::string_view key, std::string_view value) {
    (*map_)[key].assign(value.data(), value.size());
  }
  void Refill() {
    map_->clear();
    for (int i = 0; i < pending_; ++i) Put(entries_[i].Key(), entries_[i].Value());
    refilling_ = true;
  }
  bool KeysDistinct() const {
    for (int i = 1; i < pending_; ++i) {
      for (int j = 0; j < i; ++j) {
        if (entries_[i].Key() == entries_[j].Key()) return false;
      }
    }
    return true;
  }

  StringMap* map_;
  int pending_ = 0;
  bool refilling_ = false;
  Entry entries_[kMaxPending];
};

// --- Field kinds: what a table entry does with its field --------------------------------------
// Each has kTag (the tag it reads), a State living while one message is read (constructed from
// StateArg(m)), Read (one occurrence of the field), Stash (a oneof member moves to the spares)
// and Finish (after the last field: resets the field if the bytes did not hold it).

template <typename F>
struct MemberOf;
template <typename M, typename R, typename... Args>
struct MemberOf<R (M::*)(Args...)> {
  using Message = M;
  using Result = R;
  using Arg = std::tuple_element_t<0, std::tuple<Args..., void>>;
};

struct NoState {
  explicit NoState(const void*) {}
};

// How a string, message, repeated or map field is filled over one message: element by element
// (RepeatedFill, StringMapFill) or directly (NoState).
template <typename T>
struct FillOf {
  using type = NoState;
};
template <typename T>
struct FillOf<google::protobuf::RepeatedPtrField<T>> {
  using type = RepeatedFill<T>;
};
template <>
struct FillOf<google::protobuf::Map<std::string, std::string>> {
  using type = StringMapFill;
};

// A string, message, repeated or map field: kMutable returns std::string*, Message*,
// RepeatedPtrField<T>* or Map<string, string>*.
template <int kNumber, auto kMutable, auto kClear>
struct Field {
  using M = typename MemberOf<decltype(kMutable)>::Message;
  using T = std::remove_pointer_t<typename MemberOf<decltype(kMutable)>::Result>;
  using State = typename FillOf<T>::type;
  static constexpr bool kFilled = !std::is_same_v<State, NoState>;
  static constexpr uint32_t kTag = LenTag(kNumber);
  static_assert(SeenFields::Holds(kNumber), "SeenFields holds numbers 1 to 30 and 100 to 131");

  static auto StateArg(M* m) {
    if constexpr (kFilled) {
      return (m->*kMutable)();
    } else {
      return m;
    }
  }
  template <typename Stash>
  static bool Read(WireCursor& c, M* m, State& state, SeenFields& seen, SpareMembers* spares,
                   const Stash&) {
    if constexpr (std::is_same_v<T, std::string>) {
      return seen.Add(kNumber) && ReadString(c, (m->*kMutable)());
    } else if constexpr (std::is_same_v<State, StringMapFill>) {
      return state.Read(c);
    } else if constexpr (kFilled) {
      if constexpr (std::is_same_v<typename T::value_type, std::string>) {
        return ReadString(c, state.Next());
      } else {
        return ReadMessage(c, state.Next(), spares);
      }
    } else {
      return seen.First(kNumber) && ReadMessage(c, (m->*kMutable)(), spares);
    }
  }
  static void Stash(M*, SpareMembers*) {}
  static void Finish(M* m, const SeenFields& seen, State& state, SpareMembers*) {
    if constexpr (kFilled) {
      state.Finish();
    } else if (!seen.Has(kNumber)) {
      (m->*kClear)();
    }
  }
};

// An int32, int64, enum or bool field (kSet takes the value), converted the way protobuf's
// generated parser converts varints: int32 and enums keep the low 32 bits, int64 all 64, bool is
// "not zero".
template <int kNumber, auto kSet, auto kClear>
struct Scalar {
  using M = typename MemberOf<decltype(kSet)>::Message;
  using V = typename MemberOf<decltype(kSet)>::Arg;
  using State = NoState;
  static constexpr uint32_t kTag = VarintTag(kNumber);
  static_assert(SeenFields::Holds(kNumber), "SeenFields holds numbers 1 to 30 and 100 to 131");

  static M* StateArg(M* m) { return m; }
  template <typename Stash>
  static bool Read(WireCursor& c, M* m, State&, SeenFields& seen, SpareMembers*, const Stash&) {
    uint64_t v = 0;
    if (!c.Varint(&v)) return false;
    seen.Add(kNumber);
    if constexpr (std::is_same_v<V, bool>) {
      (m->*kSet)(v != 0);
    } else if constexpr (std::is_same_v<V, int64_t>) {
      (m->*kSet)(static_cast<int64_t>(v));
    } else {
      static_assert(std::is_same_v<V, int32_t> || std::is_enum_v<V>, "int32, int64, enum or bool");
      (m->*kSet)(static_cast<V>(static_cast<int32_t>(static_cast<uint32_t>(v))));
    }
    return true;
  }
  static void Stash(M*, SpareMembers*) {}
  static void Finish(M* m, const SeenFields& seen, State&, SpareMembers*) {
    if (!seen.Has(kNumber)) (m->*kClear)();
  }
};

// A message member of a oneof. On a heap message (spares not nullptr) the member another record
// set is stashed in the spares rather than deleted, and a spare of this member is reattached.
template <int kNumber, auto kHas, auto kMutable, auto kRelease, auto kSetAllocated, auto kClear>
struct OneofMember {
  using M = typename MemberOf<decltype(kMutable)>::Message;
  using T = std::remove_pointer_t<typename MemberOf<decltype(kMutable)>::Result>;
  using State = NoState;
  static constexpr uint32_t kTag = LenTag(kNumber);
  static_assert(kNumber > 0 && kNumber < SeenFields::kOneof, "spare slots hold numbers 1 to 30");

  static M* StateArg(M* m) { return m; }
  // stash_oneof() stashes whichever member of the oneof is set.
  template <typename StashOneof>
  static bool Read(WireCursor& c, M* m, State&, SeenFields& seen, SpareMembers* spares,
                   const StashOneof& stash_oneof) {
    if (!seen.First(SeenFields::kOneof)) return false;
    if (spares != nullptr && !(m->*kHas)()) {
      stash_oneof();
      std::unique_ptr<google::protobuf::Message>& spare = spares->For(m)[kNumber];
      if (spare != nullptr) (m->*kSetAllocated)(static_cast<T*>(spare.release()));
    }
    return ReadMessage(c, (m->*kMutable)(), spares);
  }
  static void Stash(M* m, SpareMembers* spares) {
    if ((m->*kHas)()) spares->For(m)[kNumber].reset((m->*kRelease)());
  }
  static void Finish(M* m, const SeenFields& seen, State&, SpareMembers* spares) {
    if (seen.Has(SeenFields::kOneof) || !(m->*kHas)()) return;
    if (spares != nullptr) {
      Stash(m, spares);
    } else {
      (m->*kClear)();
    }
  }
};

// A message's parser: its fields, each a Field, Scalar or OneofMember.
template <typename... Fields>
struct Table {
  template <typename M>
  static bool Assign(WireCursor c, M* m, SpareMembers* spares) {
    return Run(c, m, spares, std::index_sequence_for<Fields...>{});
  }

 private:
  template <typename M, size_t... I>
  static bool Run(WireCursor c, M* m, SpareMembers* spares, std::index_sequence<I...>) {
    // Braces: clang reads the parenthesized form as a function declaration.
    std::tuple<typename Fields::State...> states{Fields::StateArg(m)...};
    SeenFields seen;
    const auto stash_oneof = [m, spares] { (Fields::Stash(m, spares), ...); };
    uint32_t tag = 0;
    while (!c.done()) {
      if (!c.Tag(&tag)) return false;
      bool ok = false;  // stays false for a tag no field has
      ((tag == Fields::kTag &&
        (ok = Fields::Read(c, m, std::get<I>(states), seen, spares, stash_oneof), true)) ||
       ...);
      if (!ok) return false;
    }
    (Fields::Finish(m, seen, std::get<I>(states), spares), ...);
    return true;
  }
};

// Table entries for the message type M in scope; `name` as in the generated accessors.
// WIRE_FIELD takes mutable_name() without arguments (a repeated field's also has an indexed one).
#define WIRE_FIELD(number, name)                                                               \
  ::schedcheck::trace::wire::Field<                                                            \
      number,                                                                                  \
      static_cast<decltype(std::declval<M&>().mutable_##name()) (M::*)()>(&M::mutable_##name), \
      &M::clear_##name>
#define WIRE_SCALAR(number, name) \
  ::schedcheck::trace::wire::Scalar<number, &M::set_##name, &M::clear_##name>
#define WIRE_ONEOF(number, name)                                                       \
  ::schedcheck::trace::wire::OneofMember<number, &M::has_##name, &M::mutable_##name,   \
                                         &M::release_##name, &M::set_allocated_##name, \
                                         &M::clear_##name>

}  // namespace schedcheck::trace::wire

#endif  // SCHEDCHECK_TRACES_FAST_PARSE_FIELDS_H_
