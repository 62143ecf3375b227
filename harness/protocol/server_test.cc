// The child side without processes: a Session answers like the in-process Replayer, rejects
// requests out of order, and Serve answers garbage with an Error before giving up.
#include "harness/protocol/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include "harness/protocol/framing.h"
#include "traces/trace_file.h"

namespace schedcheck::protocol {
namespace {

std::string CorpusPath(const std::string& file) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/traces/corpus/" + file;
}

Request HelloRequest(uint32_t version = kProtocolVersion) {
  Request r;
  r.mutable_hello()->set_protocol_version(version);
  r.mutable_hello()->set_compat("1.27");
  r.mutable_hello()->set_seed(1);
  return r;
}

TEST(SessionTest, AnswersHelloWithItsVersionAndName) {
  Session s{ServeOptions{}};
  Response r = s.Handle(HelloRequest());
  ASSERT_TRUE(r.has_hello_ack()) << r.DebugString();
  EXPECT_EQ(r.hello_ack().protocol_version(), kProtocolVersion);
  EXPECT_EQ(r.hello_ack().scheduler_name(), "schedcheck-reference");
  EXPECT_EQ(r.hello_ack().config_source(), "default");
}

TEST(SessionTest, RejectsRequestsOutOfOrder) {
  Session s{ServeOptions{}};
  Request finish;
  finish.mutable_finish()->set_end_ns(5);
  Response r = s.Handle(finish);
  ASSERT_TRUE(r.has_error());
  EXPECT_EQ(r.error().message(), "the first request must be Hello");
  // Once failed, the session stays failed.
  EXPECT_TRUE(s.Handle(HelloRequest()).has_error());

  Session t{ServeOptions{}};
  ASSERT_TRUE(t.Handle(HelloRequest()).has_hello_ack());
  EXPECT_EQ(t.Handle(HelloRequest()).error().message(), "a second Hello before Finish");

  Session u{ServeOptions{}};
  ASSERT_TRUE(u.Handle(HelloRequest()).has_hello_ack());
  ASSERT_TRUE(u.Handle(finish).has_decisions());
  EXPECT_TRUE(u.finished());
  EXPECT_EQ(u.Handle(finish).error().message(),
            "request after Finish (only a new Hello may follow)");

  // After Finish, a Hello starts a new run.
  Session v{ServeOptions{}};
  ASSERT_TRUE(v.Handle(HelloRequest()).has_hello_ack());
  ASSERT_TRUE(v.Handle(finish).has_decisions());
  ASSERT_TRUE(v.Handle(HelloRequest()).has_hello_ack());
  EXPECT_FALSE(v.finished());
  EXPECT_TRUE(v.Handle(finish).has_decisions());
}

TEST(SessionTest, VersionMismatchIsAnsweredWithItsOwnVersionThenNothingIsServed) {
  Session s{ServeOptions{}};
  Response r = s.Handle(HelloRequest(9));
  ASSERT_TRUE(r.has_hello_ack());
  EXPECT_EQ(r.hello_ack().protocol_version(), kProtocolVersion);
  Request finish;
  finish.mutable_finish()->set_end_ns(0);
  EXPECT_NE(s.Handle(finish).error().message().find("protocol version mismatch"),
            std::string::npos);
}

TEST(SessionTest, BadHelloFieldsAreErrorsNamingTheField) {
  Request compat = HelloRequest();
  compat.mutable_hello()->set_compat("1.35");
  EXPECT_EQ(Session{ServeOptions{}}.Handle(compat).error().message(),
            "Hello.compat 1.35 is not implemented (implemented: 1.27, 1.37)");
  Request config = HelloRequest();
  config.mutable_hello()->set_config_yaml(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    filter:\n"
      "      enabled:\n      - name: NoSuchPlugin\n");
  config.mutable_hello()->set_config_source("my.yaml");
  std::string message = Session{ServeOptions{}}.Handle(config).error().message();
  EXPECT_NE(message.find("my.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find("NoSuchPlugin"), std::string::npos) << message;
}

// `serve --limit`: objects per run, each object's strings, and the configuration's YAML nesting.
TEST(SessionTest, InputLimitsAreEnforcedNamingTheLimit) {
  auto node_event = [](const std::string& name) {
    trace::ApiEvent e;
    e.set_type(trace::ADDED);
    e.mutable_node()->mutable_metadata()->set_name(name);
    return e;
  };
  ServeOptions options;
  options.limits.records = 3;
  options.limits.string_bytes = 40;
  Session s{options};
  ASSERT_TRUE(s.Handle(HelloRequest()).has_hello_ack());
  Request events;
  events.mutable_events()->set_time_ns(0);
  *events.mutable_events()->add_events() = node_event("a");
  *events.mutable_events()->add_events() = node_event("b");
  ASSERT_TRUE(s.Handle(events).has_decisions());
  events.mutable_events()->set_time_ns(1);
  events.mutable_events()->mutable_events(0)->set_type(trace::MODIFIED);
  events.mutable_events()->mutable_events(1)->set_type(trace::MODIFIED);
  const std::string third = s.Handle(events).error().message();
  EXPECT_NE(third.find("Events.events[1]"), std::string::npos) << third;
  EXPECT_NE(third.find("records=3"), std::string::npos) << third;

  Session t{options};
  ASSERT_TRUE(t.Handle(HelloRequest()).has_hello_ack());
  Request long_name;
  long_name.mutable_events()->set_time_ns(0);
  *long_name.mutable_events()->add_events() = node_event(std::string(41, 'n'));
  const std::string message = t.Handle(long_name).error().message();
  EXPECT_NE(message.find("Events.events[0]"), std::string::npos) << message;
  EXPECT_NE(message.find("string-bytes=40"), std::string::npos) << message;

  ServeOptions shallow;
  shallow.limits.yaml_depth = 2;
  Request config = HelloRequest();
  config.mutable_hello()->set_config_yaml(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    filter:\n"
      "      enabled:\n      - name: NodeName\n");
  const std::string deep = Session{shallow}.Handle(config).error().message();
  EXPECT_NE(deep.find("yaml-depth=2"), std::string::npos) << deep;
  EXPECT_TRUE(Session{ServeOptions{}}.Handle(config).has_hello_ack());
}

// Driving a Session instant by instant gives exactly the records of Replayer::Run.
TEST(SessionTest, SessionEqualsTheInProcessReplay) {
  auto trace = trace::LoadTrace(CorpusPath("unblock.jsonl"));
  ASSERT_TRUE(trace.ok()) << trace.message();
  ServeOptions options;
  options.config_path = CorpusPath("unblock.config.yaml");
  Session session(options);
  Request hello = HelloRequest();
  hello.mutable_hello()->set_epoch_unix_ns(1'704'067'200'000'000'000);
  Response ack = session.Handle(hello);
  ASSERT_TRUE(ack.has_hello_ack()) << ack.DebugString();
  EXPECT_EQ(ack.hello_ack().config_source(), options.config_path);

  std::vector<trace::Record> got;
  const auto& records = trace->records;
  const int64_t t0 = records.front().time_ns();
  for (size_t i = 0; i < records.size();) {
    Request r;
    r.mutable_events()->set_time_ns(records[i].time_ns() - t0);
    r.mutable_events()->set_first_index(i);
    for (int64_t t = records[i].time_ns(); i < records.size() && records[i].time_ns() == t; ++i) {
      *r.mutable_events()->add_events() = records[i].api();
    }
    Response d = session.Handle(r);
    ASSERT_TRUE(d.has_decisions()) << d.DebugString();
    got.insert(got.end(), d.decisions().records().begin(), d.decisions().records().end());
  }
  Request finish;
  finish.mutable_finish()->set_end_ns(records.back().time_ns() - t0 + replay::kDefaultHorizonNs);
  Response last = session.Handle(finish);
  got.insert(got.end(), last.decisions().records().begin(), last.decisions().records().end());

  replay::ReplayOptions ro;
  ro.compat = "1.27";
  auto config = reference::LoadSchedulerConfiguration(options.config_path, "1.27");
  ASSERT_TRUE(config.ok());
  ro.config = *config;
  ro.epoch_unix_ns = 1'704'067'200'000'000'000;
  auto replayer = replay::Replayer::Create(ro);
  ASSERT_TRUE(replayer.ok());
  ASSERT_TRUE((*replayer)->Run(records).ok());
  const auto& want = (*replayer)->log().records();
  ASSERT_EQ(got.size(), want.size());
  ASSERT_GT(want.size(), 10u);
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(got[i].SerializeAsString(), want[i].SerializeAsString()) << i;
}

TEST(ServeTest, CleanEndIsOkAndGarbageIsAnsweredWithAnError) {
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  std::string hello;
  HelloRequest().SerializeToString(&hello);
  ASSERT_TRUE(WriteFrame(in[1], hello, -1).ok());
  close(in[1]);
  std::ostringstream log;
  EXPECT_TRUE(Serve(in[0], out[1], ServeOptions{}, log).ok()) << log.str();
  close(in[0]);
  std::string payload;
  ASSERT_TRUE(ReadFrame(out[0], 1000, &payload).ok());
  Response ack;
  ASSERT_TRUE(ack.ParseFromString(payload));
  EXPECT_TRUE(ack.has_hello_ack());

  ASSERT_EQ(pipe(in), 0);
  const std::string garbage("\x03\x00\x00\x00\xff\xff\xff", 7);
  ASSERT_EQ(write(in[1], garbage.data(), garbage.size()), 7);
  close(in[1]);
  Outcome served = Serve(in[0], out[1], ServeOptions{}, log);
  ASSERT_FALSE(served.ok());
  EXPECT_EQ(served.message(), "request 1: unparseable Request (3 bytes)");
  ASSERT_TRUE(ReadFrame(out[0], 1000, &payload).ok());
  Response error;
  ASSERT_TRUE(error.ParseFromString(payload));
  EXPECT_EQ(error.error().message(), "request 1: unparseable Request (3 bytes)");
  close(in[0]);
  close(out[0]);
  close(out[1]);
}

}  // namespace
}  // namespace schedcheck::protocol
