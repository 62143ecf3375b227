// The schedcheck trace file format: constants, limits and the fixed-size encodings shared by
// TraceWriter and TraceReader. traces/README.md documents the byte layout; keep them in sync.
// All integers are little-endian. Callers outside traces/ normally need only kFormatVersion,
// kCompatLevel and Trace.
#ifndef SCHEDCHECK_TRACES_TRACE_FORMAT_H_
#define SCHEDCHECK_TRACES_TRACE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "google/protobuf/message_lite.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {

// File header: magic, u32 format version, u32 header length, Header proto, u32 CRC32C.
inline constexpr std::string_view kFileMagic = "SCHEDTRC";
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr std::string_view kCompatLevel = "1.27";
inline constexpr size_t kFileHeaderPrefixSize = 16;  // magic + version + header length

// Frame header: six u32 (magic, compressed length, uncompressed length, record count,
// CRC32C of the compressed payload, CRC32C of the preceding 20 header bytes).
inline constexpr uint32_t kFrameMagic = 0x46435353u;  // "SSCF" on disk
inline constexpr size_t kFrameHeaderSize = 24;

// Limits: anything larger is rejected before any allocation.
inline constexpr uint32_t kMaxHeaderBytes = 1u << 20;              // 1 MiB
inline constexpr uint32_t kMaxFrameUncompressedBytes = 64u << 20;  // 64 MiB
inline constexpr uint32_t kMaxFrameCompressedBytes = 64u << 20;    // 64 MiB
inline constexpr uint32_t kMaxRecordBytes = 16u << 20;             // 16 MiB

// zstd settings; fixed so that the same records always give the same bytes.
inline constexpr int kZstdLevel = 3;

// A whole trace in memory (tests, samples, small conversions).
struct Trace {
  Header header;
  std::vector<Record> records;
};

// The decoded fixed part of a frame header.
struct FrameHeader {
  uint32_t magic = 0;
  uint32_t compressed_size = 0;
  uint32_t uncompressed_size = 0;
  uint32_t record_count = 0;
  uint32_t payload_crc = 0;
  uint32_t header_crc = 0;
};

void PutU32(std::string* out, uint32_t v);
uint32_t GetU32(const char* p);

// Serializes `message` with deterministic map ordering (byte-identical output for equal input).
std::string SerializeDeterministic(const google::protobuf::MessageLite& message);

// Appends varint(len) + bytes of the deterministic serialization of `record` to `out`.
// Serializes straight into `out` (no intermediate buffer).
void AppendDelimited(const Record& record, std::string* out);
// The same, where `size` is the value record.ByteSizeLong() returned just before (its sub-message
// sizes are cached); saves the second size computation.
void AppendDelimited(const Record& record, size_t size, std::string* out);

// Returns the complete file header (magic .. header CRC) for `header`.
// REQUIRES: the serialized header is at most kMaxHeaderBytes.
std::string EncodeFileHeader(const Header& header);

// Returns the 24-byte frame header for a payload; fills in both CRCs.
std::string EncodeFrameHeader(std::string_view compressed_payload, uint32_t uncompressed_size,
                              uint32_t record_count);

// Decodes 24 bytes; does not validate anything.
FrameHeader DecodeFrameHeader(const char* p);

// CRC32C of the first 20 bytes of an encoded frame header.
uint32_t FrameHeaderCrc(const char* p);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_TRACE_FORMAT_H_
