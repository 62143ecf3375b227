#include "reference/scheduler/tie_set.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace schedcheck::reference {
namespace {

std::vector<std::string> NamesUpTo(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i)
    names.push_back("n" + std::string(4 - std::to_string(i).size(), '0') + std::to_string(i));
  return names;
}

TEST(TieSet, FromNamesVisitsEveryNameInOrderAcrossWordBoundaries) {
  for (size_t n : {0u, 1u, 63u, 64u, 65u, 130u}) {
    const std::vector<std::string> names = NamesUpTo(n);
    TieSet ties = TieSet::FromNames(names);
    EXPECT_EQ(ties.size(), n);
    EXPECT_EQ(ties.empty(), n == 0);
    EXPECT_EQ(ties.Names(), names) << n << " names";
    EXPECT_TRUE(ties == names);
  }
}

TEST(TieSet, MarkedRanksWithGapsAndEmptyWords) {
  auto table = std::make_shared<const TieSet::NameTable>(NamesUpTo(300));
  std::vector<uint64_t> bits(5, 0);
  for (uint32_t rank : {0u, 63u, 64u, 200u, 299u}) bits[rank / 64] |= uint64_t{1} << (rank % 64);
  TieSet ties(table, bits);
  EXPECT_EQ(ties.size(), 5u);
  EXPECT_EQ(ties.Names(), (std::vector<std::string>{"n0000", "n0063", "n0064", "n0200", "n0299"}));
  EXPECT_FALSE(ties == (std::vector<std::string>{"n0000", "n0063", "n0064", "n0200"}));
  EXPECT_EQ(TieSet::OfRank(table, 131).Names(), std::vector<std::string>{"n0131"});
  EXPECT_TRUE(TieSet().Names().empty());
}

}  // namespace
}  // namespace schedcheck::reference
