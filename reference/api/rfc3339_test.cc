#include "reference/api/rfc3339.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(Rfc3339Test, ParsesKubernetesTimestamps) {
  EXPECT_EQ(*ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(*ParseRfc3339("2023-05-01T12:00:00Z"), 1682942400LL * 1000000000);
  EXPECT_EQ(*ParseRfc3339("2023-05-01T14:00:00+02:00"), 1682942400LL * 1000000000);
  EXPECT_EQ(*ParseRfc3339("2023-05-01T12:00:00.5Z"), 1682942400LL * 1000000000 + 500000000);
  EXPECT_EQ(*ParseRfc3339("2000-02-29T00:00:01Z"), 951782401LL * 1000000000);
}

TEST(Rfc3339Test, RejectsMalformed) {
  for (const char* s : {"", "2023-05-01", "2023-05-01T12:00:00", "2023-13-01T00:00:00Z",
                        "2023-05-01T12:00:00Zx", "2023-05-01T12:00:00."}) {
    EXPECT_FALSE(ParseRfc3339(s).ok()) << s;
  }
}

TEST(Rfc3339Test, FormatRoundTrips) {
  for (int64_t ns :
       {0LL, 1682942400LL * 1000000000 + 500000000, 951782401LL * 1000000000, -1000000000LL}) {
    EXPECT_EQ(*ParseRfc3339(FormatRfc3339(ns)), ns) << FormatRfc3339(ns);
  }
  EXPECT_EQ(FormatRfc3339(1682942400LL * 1000000000 + 500000000), "2023-05-01T12:00:00.5Z");
}

}  // namespace
}  // namespace schedcheck::reference
