// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table driven, as used by the trace
// format to checksum file headers and frames. Pure functions; any caller may use them.
#ifndef SCHEDCHECK_TRACES_CRC32C_H_
#define SCHEDCHECK_TRACES_CRC32C_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace schedcheck::trace {

// Returns the CRC-32C of data[0, n) continued from `crc`, the CRC-32C of the bytes before it
// (0 for none): Extend(Crc32c(a), b) == Crc32c(a + b).
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n);

inline uint32_t Crc32c(const void* data, size_t n) { return Crc32cExtend(0, data, n); }
inline uint32_t Crc32c(std::string_view data) { return Crc32c(data.data(), data.size()); }

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_CRC32C_H_
