// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by the trace format to checksum
// file headers and frames. Pure functions; any caller may use them. Uses the SSE4.2 crc32
// instruction when the CPU has it (checked once, at run time), else portable slicing-by-8 tables;
// both give the same values (crc32c_test checks them against each other).
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

// The two implementations behind Crc32cExtend, for tests and benchmarks.
uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t n);
// REQUIRES: Crc32cHardwareAvailable().
uint32_t Crc32cExtendHardware(uint32_t crc, const void* data, size_t n);
bool Crc32cHardwareAvailable();

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_CRC32C_H_
