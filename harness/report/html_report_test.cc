#include "harness/report/html_report.h"

#include <gtest/gtest.h>

#include "harness/diff/load.h"
#include "harness/report/static_html.h"

namespace schedcheck::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kInjected[] = "default/</script><img src=x onerror=alert(1)>";

std::string Q(double t, const std::string& pod, const std::string& from, const std::string& to,
              const std::string& cause) {
  return Json({{"t", t},
               {"type", "queue"},
               {"pod", pod},
               {"from", from},
               {"to", to},
               {"cause", cause}})
             .dump() +
         "\n";
}

std::string Scheduled(double t, const std::string& pod, int attempt, const std::string& node) {
  return Json({{"t", t},
               {"type", "attempt"},
               {"pod", pod},
               {"attempt", attempt},
               {"result", "Scheduled"},
               {"node", node},
               {"ties", {node}}})
             .dump() +
         "\n";
}

std::string Unschedulable(double t, const std::string& pod, int attempt,
                          const std::string& message) {
  return Json({{"t", t},
               {"type", "attempt"},
               {"pod", pod},
               {"attempt", attempt},
               {"result", "Unschedulable"},
               {"unschedulablePlugins", {"TaintToleration"}},
               {"message", message}})
             .dump() +
         "\n";
}

std::vector<trace::Record> Parse(const std::string& text) {
  auto records = diff::ParseDecisionLog(text, "test.jsonl");
  EXPECT_TRUE(records.ok()) << records.message();
  return records.ok() ? *records : std::vector<trace::Record>{};
}

// The injected pod fails once; the reference retries it at t=10 on a node event, the candidate
// only at t=330 on the unschedulable timeout (a requeue divergence). default/web schedules alike.
ReportInput Input() {
  const std::string common =
      Q(0, "default/web", "none", "active", "PodAdd") +
      Q(0, kInjected, "none", "active", "PodAdd") +
      Q(0, "default/web", "active", "inflight", "Pop") + Scheduled(0, "default/web", 1, "n1") +
      Q(0, "default/web", "inflight", "none", "Done") +
      Q(0, kInjected, "active", "inflight", "Pop") +
      Unschedulable(0, kInjected, 1, std::string("taint \u2028 ") + kInjected) +
      Q(0, kInjected, "inflight", "unschedulable", "ScheduleAttemptFailure");
  auto retry = [&](double t, const std::string& cause) {
    return Q(t, kInjected, "unschedulable", "active", cause) +
           Q(t, kInjected, "active", "inflight", "Pop") + Scheduled(t, kInjected, 2, "n2") +
           Q(t, kInjected, "inflight", "none", "Done");
  };
  ReportInput in;
  in.title = "ref.jsonl vs cand.jsonl";
  in.reference = {"ref.jsonl", Parse(common + retry(10, "NodeTaintChange"))};
  in.candidate = {"cand.jsonl", Parse(common + retry(330, "UnschedulableTimeout"))};
  in.result = diff::Diff(in.reference.decisions, in.candidate.decisions);
  in.explanation =
      "the cluster at t=10 as the reference saw it (2 node(s)):\n"
      "reference (ref.jsonl) (profile default-scheduler):\n"
      "  n1: rejected by TaintToleration Unschedulable: untolerated taint\n"
      "  n2: feasible\n"
      "candidate weight:X=2 (cand.jsonl) (profile default-scheduler):\n"
      "  n2: feasible\n";
  return in;
}

TEST(ReportDataTest, DivergencesPathsAndExplanation) {
  const ReportInput in = Input();
  ASSERT_EQ(in.result.divergences.size(), 1u);
  Json data = BuildReportData(in);
  EXPECT_EQ(data["verdict"]["requeue"], 1);
  EXPECT_EQ(data["verdict"]["fails"], true);
  ASSERT_EQ(data["divergences"].size(), 1u);
  EXPECT_EQ(data["divergences"][0]["pod"], kInjected);
  EXPECT_EQ(data["divergences"][0]["class"], "requeue");
  ASSERT_EQ(data["paths"].size(), 1u);
  const Json& path = data["paths"][0];
  EXPECT_EQ(path["pod"], kInjected);
  ASSERT_EQ(path["reference"].size(), 8u);  // add, pop, attempt, failure, retry, pop, attempt, done
  EXPECT_EQ(path["reference"][4]["text"], "unschedulable \u2192 active (NodeTaintChange)");
  EXPECT_EQ(path["candidate"][4]["text"], "unschedulable \u2192 active (UnschedulableTimeout)");
  EXPECT_EQ(path["candidate"][6]["text"], "attempt 2: scheduled on n2 (ties n2)");
  EXPECT_EQ(data["span"], 330.0);
  EXPECT_EQ(data["timeline"]["reference"].size(), 3u);
  ASSERT_EQ(data["explanation"]["sections"].size(), 2u);
  EXPECT_EQ(data["explanation"]["header"],
            "the cluster at t=10 as the reference saw it (2 node(s)):");
  EXPECT_EQ(data["explanation"]["sections"][0]["lines"].size(), 2u);
  EXPECT_EQ(data["explanation"]["sections"][1]["lines"][0], "  n2: feasible");
}

TEST(ReportDataTest, QueueSizesAfterEachInstant) {
  const ReportInput in = Input();
  std::vector<QueuePoint> ref = QueueSizes(in.reference.decisions, 100);
  ASSERT_EQ(ref.size(), 2u);
  EXPECT_EQ(ref[0].t, 0);
  EXPECT_EQ(ref[0].active, 0);  // both popped within the instant
  EXPECT_EQ(ref[0].unschedulable, 1);
  EXPECT_EQ(ref[1].t, 10);
  EXPECT_EQ(ref[1].unschedulable, 0);
}

TEST(ReportDataTest, QueueSizesKeepEachBucketsMaximum) {
  std::string log;
  for (int i = 0; i < 10; ++i)
    log += Q(i, "default/p" + std::to_string(i), "none", "backoff", "PodAdd");
  log += Q(9.5, "default/p0", "backoff", "none", "Done");
  std::vector<QueuePoint> points = QueueSizes(Parse(log), 2);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].t, 0);
  EXPECT_EQ(points[0].backoff, 5);  // p0..p4, at t = 0..4
  EXPECT_EQ(points[1].t, 4.75);
  EXPECT_EQ(points[1].backoff, 10);  // the peak at t = 9, not the 9 after it
}

TEST(HtmlReportTest, SameInputSameBytes) {
  auto a = RenderHtmlReport(Input());
  auto b = RenderHtmlReport(Input());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

TEST(HtmlReportTest, UntrustedStringsCannotCloseTheScript) {
  auto html = RenderHtmlReport(Input());
  ASSERT_TRUE(html.ok()) << html.message();
  // Only the page's own two script elements close.
  size_t closes = 0;
  for (size_t at = html->find("</script>"); at != std::string::npos;
       at = html->find("</script>", at + 1))
    ++closes;
  EXPECT_EQ(closes, 2u);
  EXPECT_EQ(html->find("<img"), std::string::npos);
  EXPECT_NE(html->find("default/\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e"),
            std::string::npos);
  EXPECT_NE(html->find("taint \\u2028 "), std::string::npos);
  EXPECT_EQ(html->find("\u2028"), std::string::npos);
}

TEST(HtmlReportTest, LoadsNothing) {
  auto html = RenderHtmlReport(Input());
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("Content-Security-Policy\" content=\"default-src 'none';"),
            std::string::npos);
  // The one URL is the SVG namespace name, an identifier that is never fetched.
  std::string rest = *html;
  for (size_t at; (at = rest.find("http://www.w3.org/2000/svg")) != std::string::npos;)
    rest.erase(at, 26);
  // (The embedded data holds "\u003cimg src=x", text of the injected pod name, never a tag.)
  for (const char* url :
       {"http:", "https:", "<img", "<link", "<iframe", "src=\"", "@import", "url("}) {
    EXPECT_EQ(rest.find(url), std::string::npos) << url;
  }
  EXPECT_NE(html->find("<body data-rendered=\"pending\">"), std::string::npos);
}

// The HTML outside every <script> element.
std::string WithoutScripts(std::string html) {
  for (size_t at; (at = html.find("<script")) != std::string::npos;) {
    const size_t end = html.find("</script>", at);
    if (end == std::string::npos) break;
    html.erase(at, end + 9 - at);
  }
  return html;
}

// Without JavaScript the page still shows its verdict, counts and divergence table: they are
// markup, with every untrusted string escaped.
TEST(HtmlReportTest, VerdictCountsAndDivergencesAreMarkup) {
  auto html = RenderHtmlReport(Input());
  ASSERT_TRUE(html.ok()) << html.message();
  const std::string page = WithoutScripts(*html);
  EXPECT_EQ(page.find("report-data"), std::string::npos);  // the data went with the scripts
  EXPECT_NE(page.find("<span class=\"verdict fails\" id=\"verdict\">diverges</span> 2 pods "
                      "compared; 0 hard, 1 requeue, 0 soft divergence(s)</p>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<span class=\"side-label\">reference: </span>ref.jsonl<br>"),
            std::string::npos);
  const std::string pod = "default/&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;";
  EXPECT_NE(page.find("<tr class=\"divergence requeue\"><td class=\"num\">10 s</td><td><span "
                      "class=\"badge requeue\">requeue</span></td><td class=\"pod\">" +
                      pod + "</td><td class=\"num\">&#x2013;</td><td>queue-path</td>"),
            std::string::npos)
      << page;
  // ASCII only: U+2028 in the message is a character reference.
  for (char c : page) ASSERT_LT(static_cast<unsigned char>(c), 0x80);
  ReportInput same = Input();
  same.candidate = same.reference;
  same.result = diff::Diff(same.reference.decisions, same.candidate.decisions);
  auto equivalent = RenderHtmlReport(same);
  ASSERT_TRUE(equivalent.ok());
  EXPECT_NE(WithoutScripts(*equivalent).find("None: the candidate decided as the reference did."),
            std::string::npos);
}

TEST(HtmlReportTest, HtmlEscapeWritesAscii) {
  EXPECT_EQ(HtmlEscape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(HtmlEscape("\u2013 \xf0\x9f\x98\x80"), "&#x2013; &#x1F600;");
  EXPECT_EQ(HtmlEscape("\xff\xc0\x80 \xed\xa0\x80"),
            "&#xFFFD;&#xFFFD;&#xFFFD; &#xFFFD;&#xFFFD;&#xFFFD;");
}

TEST(HtmlReportTest, ScriptSafeJsonEscapesAndRepairs) {
  Json v = {{"s", std::string("a<b>&c\u2028d\u2029e\xff")}};
  EXPECT_EQ(ScriptSafeJson(v), "{\"s\":\"a\\u003cb\\u003e\\u0026c\\u2028d\\u2029e\\ufffd\"}");
  EXPECT_EQ(Json::parse(ScriptSafeJson(v))["s"], "a<b>&c\u2028d\u2029e\ufffd");
}

}  // namespace
}  // namespace schedcheck::report
