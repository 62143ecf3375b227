// A child that dies says why in one line: how it ended, the likely cause, and the last lines of
// its stderr. Fake children are one-line shell commands.
#include "harness/protocol/client.h"

#include <gtest/gtest.h>

#include <string>

namespace schedcheck::protocol {
namespace {

// The error of the first request sent to a child running `command`.
std::string DeathOf(const std::string& command) {
  auto client = Client::Spawn(command, 5000);
  if (!client.ok()) return "spawn failed: " + client.message();
  Request request;
  request.mutable_hello()->set_compat("1.37");
  auto response = (*client)->Call(request);
  return response.ok() ? "answered" : response.message();
}

// The error ends with how the child ended (the request may meet a closed stdin or a closed stdout
// first, depending on timing).
void ExpectEndsWith(const std::string& text, const std::string& end) {
  ASSERT_GE(text.size(), end.size()) << text;
  EXPECT_EQ(text.substr(text.size() - end.size()), end) << text;
}

TEST(ClientTest, AChildThatExitsOneQuotesTheEndOfItsStderr) {
  const std::string err = DeathOf(
      "for i in 1 2 3 4 5 6; do echo \"line $i\" >&2; done; "
      "echo 'E1207 adapter: event 4: pod default/p moved from n1 to n2' >&2; exit 1");
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  ExpectEndsWith(err,
                 "the child exited with status 1 (it stopped on an error of its own, e.g. the "
                 "adapter rejected an event or the scheduler failed: see its stderr); its stderr "
                 "ended with: line 3 | line 4 | line 5 | line 6 | E1207 adapter: event 4: pod "
                 "default/p moved from n1 to n2");
}

TEST(ClientTest, AChildThatCrashesIsNamedBySignal) {
  const std::string err = DeathOf("echo 'about to crash' >&2; kill -SEGV $$");
  ExpectEndsWith(err,
                 "the child was killed by signal 11 (SIGSEGV: it crashed); its stderr ended "
                 "with: about to crash");
  ExpectEndsWith(DeathOf("kill -KILL $$"),
                 "the child was killed by signal 9 (SIGKILL: killed from outside, perhaps by the "
                 "kernel for lack of memory)");
}

TEST(ClientTest, ACommandThatIsNotFoundOrSaysNothing) {
  const std::string err = DeathOf("/no/such/adapter --flag");
  EXPECT_NE(err.find("the child exited with status 127 (the shell did not find the command); its "
                     "stderr ended with: "),
            std::string::npos)
      << err;
  ExpectEndsWith(DeathOf("exit 0"),
                 "the child exited with status 0 (it ended before answering: is the command a "
                 "protocol server?)");
}

TEST(ClientTest, LastLinesKeepsTheEndTrimmed) {
  EXPECT_EQ(LastLines("", 5), "");
  EXPECT_EQ(LastLines("a\n\n  b  \r\nc", 2), "b | c");
  EXPECT_EQ(LastLines("one\n", 5), "one");
}

}  // namespace
}  // namespace schedcheck::protocol
