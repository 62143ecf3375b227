#include "traces/trace_format.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "traces/crc32c.h"

namespace schedcheck::trace {

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
}

uint32_t GetU32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(u[0]) | (static_cast<uint32_t>(u[1]) << 8) |
         (static_cast<uint32_t>(u[2]) << 16) | (static_cast<uint32_t>(u[3]) << 24);
}

std::string SerializeDeterministic(const google::protobuf::MessageLite& message) {
  message.ByteSizeLong();  // populates the cached sizes used below
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeWithCachedSizes(&coded);
  }
  return out;
}

void AppendDelimited(const Record& record, std::string* out) {
  const size_t size = record.ByteSizeLong();  // also caches sub-message sizes
  google::protobuf::io::StringOutputStream stream(out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  coded.WriteVarint32(static_cast<uint32_t>(size));
  record.SerializeWithCachedSizes(&coded);
}

std::string EncodeFileHeader(const Header& header) {
  const std::string body = SerializeDeterministic(header);
  std::string out(kFileMagic);
  PutU32(&out, kFormatVersion);
  PutU32(&out, static_cast<uint32_t>(body.size()));
  out += body;
  PutU32(&out, Crc32c(out));  // covers magic, version, length and header bytes
  return out;
}

std::string EncodeFrameHeader(std::string_view compressed_payload, uint32_t uncompressed_size,
                              uint32_t record_count) {
  std::string out;
  PutU32(&out, kFrameMagic);
  PutU32(&out, static_cast<uint32_t>(compressed_payload.size()));
  PutU32(&out, uncompressed_size);
  PutU32(&out, record_count);
  PutU32(&out, Crc32c(compressed_payload));
  PutU32(&out, FrameHeaderCrc(out.data()));
  return out;
}

FrameHeader DecodeFrameHeader(const char* p) {
  FrameHeader h;
  h.magic = GetU32(p);
  h.compressed_size = GetU32(p + 4);
  h.uncompressed_size = GetU32(p + 8);
  h.record_count = GetU32(p + 12);
  h.payload_crc = GetU32(p + 16);
  h.header_crc = GetU32(p + 20);
  return h;
}

uint32_t FrameHeaderCrc(const char* p) { return Crc32c(p, kFrameHeaderSize - 4); }

}  // namespace schedcheck::trace
