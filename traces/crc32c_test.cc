#include "traces/crc32c.h"

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace schedcheck::trace {
namespace {

TEST(Crc32cTest, KnownVectors) {
  // RFC 3720 (iSCSI) appendix B.4 test vectors and the classic check value.
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(Crc32c(ascending), 0x46DD794Eu);
  EXPECT_EQ(Crc32c(""), 0u);
  // The portable tables too, whichever one Crc32c uses here.
  EXPECT_EQ(Crc32cExtendPortable(0, std::string(32, '\xff').data(), 32), 0x62A8AB43u);
  EXPECT_EQ(Crc32cExtendPortable(0, ascending.data(), ascending.size()), 0x46DD794Eu);
}

TEST(Crc32cTest, ExtendEqualsWholeAtEverySplit) {
  std::string data;
  for (int i = 0; i < 100; ++i) data.push_back(static_cast<char>(i * 37 + 11));
  const uint32_t whole = Crc32c(data);
  for (size_t split = 0; split <= data.size(); ++split) {
    const uint32_t first = Crc32c(data.data(), split);
    EXPECT_EQ(Crc32cExtend(first, data.data() + split, data.size() - split), whole) << split;
  }
}

TEST(Crc32cTest, DetectsSingleBitFlips) {
  const std::string data = "schedcheck trace frame payload";
  const uint32_t crc = Crc32c(data);
  for (size_t i = 0; i < data.size() * 8; ++i) {
    std::string flipped = data;
    flipped[i / 8] = static_cast<char>(flipped[i / 8] ^ (1 << (i % 8)));
    EXPECT_NE(Crc32c(flipped), crc) << i;
  }
}

// Both implementations on the same inputs: the known vectors, and random data of every length
// up to 300 at every alignment, continued from random CRCs (a fixed seed: deterministic).
TEST(Crc32cTest, HardwareAndPortableAgree) {
  EXPECT_EQ(Crc32cExtendPortable(0, "123456789", 9), 0xE3069283u);
  if (!Crc32cHardwareAvailable()) GTEST_SKIP() << "no SSE4.2 crc32 on this CPU";
  EXPECT_EQ(Crc32cExtendHardware(0, "123456789", 9), 0xE3069283u);
  std::mt19937_64 rng(20240611);
  std::string buf(300 + 8, '\0');
  for (char& ch : buf) ch = static_cast<char>(rng());
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n <= 300; ++n) {
      const auto start = static_cast<uint32_t>(rng());
      EXPECT_EQ(Crc32cExtendHardware(start, buf.data() + offset, n),
                Crc32cExtendPortable(start, buf.data() + offset, n))
          << "offset " << offset << " length " << n;
    }
  }
  const std::string big(1 << 20, '\x5a');
  EXPECT_EQ(Crc32cExtendHardware(0, big.data(), big.size()),
            Crc32cExtendPortable(0, big.data(), big.size()));
}

}  // namespace
}  // namespace schedcheck::trace
