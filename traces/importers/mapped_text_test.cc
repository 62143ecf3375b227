#include "traces/importers/mapped_text.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace schedcheck::trace {
namespace {

std::string TempFile(const std::string& name, const std::string& bytes) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir ? dir : "/tmp") + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The resident kB of the mapping that starts at `start`, from /proc/self/smaps.
long ResidentKb(const void* start) {
  char head[32];
  std::snprintf(head, sizeof(head), "%lx-", reinterpret_cast<unsigned long>(start));
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_mapping = false;
  while (std::getline(smaps, line)) {
    if (line.rfind(head, 0) == 0) in_mapping = true;
    if (in_mapping && line.rfind("Rss:", 0) == 0) return std::atol(line.c_str() + 4);
  }
  return -1;
}

TEST(MappedTextTest, HoldsTheFilesBytes) {
  const std::string bytes = "{\"a\": 1}\n{\"b\": [2, 3]}\n";
  auto text = MappedText::Open(TempFile("small.json", bytes));
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_EQ(text->text(), bytes);
  MappedText moved = std::move(*text);
  EXPECT_EQ(moved.text(), bytes);
}

TEST(MappedTextTest, EmptyFileAndMissingFile) {
  auto empty = MappedText::Open(TempFile("empty.json", ""));
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ(empty->text(), "");
  auto missing = MappedText::Open("/nonexistent/watch.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "/nonexistent/watch.json: cannot open file");
}

// Released pages leave the process's resident memory, and read back unchanged.
TEST(MappedTextTest, ReleaseGivesPagesBackAndTheyReadAgain) {
  std::string bytes(3 * MappedText::kReleaseStep, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>('a' + i % 26);
  auto text = MappedText::Open(TempFile("big.json", bytes));
  ASSERT_TRUE(text.ok()) << text.message();
  long sum = 0;
  for (char c : text->text()) sum += c;  // every page resident
  const long before = ResidentKb(text->text().data());
  ASSERT_GT(before, static_cast<long>(bytes.size() / 1024 * 9 / 10));
  text->Release(MappedText::kReleaseStep / 2);  // less than a step: nothing yet
  EXPECT_EQ(ResidentKb(text->text().data()), before);
  text->Release(2 * MappedText::kReleaseStep + 100);
  const long after = ResidentKb(text->text().data());
  EXPECT_LT(after, before - static_cast<long>(MappedText::kReleaseStep / 1024 * 19 / 10));
  EXPECT_EQ(text->text(), bytes);
  EXPECT_GT(sum, 0);
}

}  // namespace
}  // namespace schedcheck::trace
