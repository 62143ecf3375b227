// WireCursor: a bounds-checked reader of protobuf wire-format bytes for the hand-written record
// parser (fast_record_parser.h). Every read checks the remaining length first and reports failure
// instead of reading past the end, so any byte sequence is safe to feed it.
//
// It accepts only the plain encodings a protobuf serializer emits (one- or two-byte tags, varints
// of at most 10 bytes with no bits beyond 64, length prefixes of at most 5 bytes). Anything else
// makes a read fail; the caller then falls back to protobuf's own parser, which decides whether
// the bytes are valid. Failing here never means "invalid", only "not handled here".
#ifndef SCHEDCHECK_TRACES_WIRE_CURSOR_H_
#define SCHEDCHECK_TRACES_WIRE_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace schedcheck::trace::wire {

// Wire types (protobuf encoding documentation).
inline constexpr uint32_t kVarint = 0;
inline constexpr uint32_t kLen = 2;

constexpr uint32_t VarintTag(uint32_t field) { return field << 3 | kVarint; }
constexpr uint32_t LenTag(uint32_t field) { return field << 3 | kLen; }

// True when every byte is < 0x80. Proto3 string fields must hold valid UTF-8; ASCII is, and the
// rare non-ASCII string is left to protobuf's own validation (the caller falls back).
inline bool IsAscii(const char* p, size_t n) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    high |= word;
  }
  for (; i < n; ++i) high |= static_cast<unsigned char>(p[i]);
  return (high & 0x8080808080808080ull) == 0;
}

// The reads are forced inline: called from every field of every table (fast_parse_fields.h),
// where the compiler otherwise keeps Bytes out of line, which costs 10-15 % of decode speed.
class WireCursor {
 public:
  WireCursor(const char* data, size_t size)
      : p_(reinterpret_cast<const uint8_t*>(data)), end_(p_ + size) {}

  bool done() const { return p_ == end_; }

  // A tag of one or two bytes (field numbers below 2048), in its shortest form. Tag 0 is refused.
  [[gnu::always_inline]] bool Tag(uint32_t* tag) {
    if (p_ == end_) return false;
    const uint32_t b0 = p_[0];
    if (b0 < 0x80) {
      *tag = b0;
      ++p_;
      return b0 != 0;
    }
    if (end_ - p_ < 2) return false;
    const uint32_t b1 = p_[1];
    if (b1 == 0 || b1 >= 0x80) return false;  // overlong or longer than two bytes
    *tag = (b0 & 0x7Fu) | b1 << 7;
    p_ += 2;
    return true;
  }

  // A varint of at most 10 bytes whose value fits 64 bits (the tenth byte, if any, is 0 or 1).
  [[gnu::always_inline]] bool Varint(uint64_t* value) {
    if (p_ != end_ && p_[0] < 0x80) {  // the common one-byte case
      *value = *p_++;
      return true;
    }
    uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      if (p_ + i == end_) return false;
      const uint64_t byte = p_[i];
      if (i == 9 && byte > 1) return false;
      v |= (byte & 0x7Fu) << (7 * i);
      if (byte < 0x80) {
        *value = v;
        p_ += i + 1;
        return true;
      }
    }
    return false;
  }

  // A length prefix (varint of at most 5 bytes, below 2^31) and that many bytes, which must all
  // be present.
  [[gnu::always_inline]] bool Bytes(std::string_view* bytes) {
    uint64_t size = 0;
    const uint8_t* const start = p_;
    if (!Varint(&size)) return false;
    if (p_ - start > 5 || size > INT32_MAX || size > static_cast<uint64_t>(end_ - p_)) {
      p_ = start;
      return false;
    }
    *bytes = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(size));
    p_ += size;
    return true;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace schedcheck::trace::wire

#endif  // SCHEDCHECK_TRACES_WIRE_CURSOR_H_
