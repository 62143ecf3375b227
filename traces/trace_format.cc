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

namespace {

// Serializes `message`, whose sizes ByteSizeLong() has just cached (`size` bytes), into
// [out, out + size) with deterministic map ordering.
void SerializeCachedTo(const google::protobuf::MessageLite& message, size_t size, char* out) {
  google::protobuf::io::ArrayOutputStream array(out, static_cast<int>(size));
  google::protobuf::io::CodedOutputStream coded(&array);
  coded.SetSerializationDeterministic(true);
  message.SerializeWithCachedSizes(&coded);
}

}  // namespace

std::string SerializeDeterministic(const google::protobuf::MessageLite& message) {
  const size_t size = message.ByteSizeLong();  // populates the cached sizes used below
  std::string out(size, '\0');
  SerializeCachedTo(message, size, out.data());
  return out;
}

void AppendDelimited(const Record& record, std::string* out) {
  AppendDelimited(record, record.ByteSizeLong(), out);
}

void AppendDelimited(const Record& record, size_t size, std::string* out) {
  using google::protobuf::io::CodedOutputStream;
  const size_t old = out->size();
  const size_t prefix = CodedOutputStream::VarintSize32(static_cast<uint32_t>(size));
  out->resize(old + prefix + size);  // amortized: std::string grows geometrically
  auto* p = reinterpret_cast<uint8_t*>(out->data() + old);
  CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(size), p);
  SerializeCachedTo(record, size, out->data() + old + prefix);
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
