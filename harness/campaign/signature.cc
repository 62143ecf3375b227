#include "harness/campaign/signature.h"

#include <cctype>

namespace schedcheck::campaign {
namespace {

bool WordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
         c == ':' || c == '/';
}

void ReplaceAll(std::string* s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size()))
    s->replace(at, from.size(), to);
}

}  // namespace

std::string Shape(const std::string& text, const std::string& pod) {
  std::string s = text;
  ReplaceAll(&s, pod, "<pod>");
  if (size_t slash = pod.find('/'); slash != std::string::npos)
    ReplaceAll(&s, pod.substr(slash + 1), "<pod>");
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (!WordChar(s[i])) {
      out += s[i++];
      continue;
    }
    size_t end = i;
    bool digit = false;
    while (end < s.size() && WordChar(s[end])) {
      digit = digit || std::isdigit(static_cast<unsigned char>(s[end]));
      ++end;
    }
    // A word's trailing ':' or '.' is punctuation ("n1:", "nodes."): kept after the '#'.
    size_t word_end = end;
    while (word_end > i && (s[word_end - 1] == ':' || s[word_end - 1] == '.')) --word_end;
    out += digit ? "#" : s.substr(i, word_end - i);
    out += s.substr(word_end, end - word_end);
    i = end;
  }
  return out;
}

std::string DivergenceSignature(const diff::Divergence& d) {
  std::string plugins;
  for (const std::string& p : d.plugins) plugins += (plugins.empty() ? "" : ",") + p;
  return std::string(diff::ClassName(d.cls)) + " " + d.what + " [" + plugins + "] " +
         Shape(d.reference, d.pod) + " | " + Shape(d.candidate, d.pod);
}

std::string CrashCause(const std::string& message) {
  std::string where;
  if (size_t at = message.find("request "); at != std::string::npos) {
    size_t open = message.find(" (", at);
    if (open != std::string::npos) {
      size_t end = open + 2;
      while (end < message.size() && std::isalpha(static_cast<unsigned char>(message[end]))) ++end;
      where = "at " + message.substr(open + 2, end - open - 2) + ": ";
    }
  }
  // The number right after `phrase` in `message`, or "".
  auto number_after = [&](const std::string& phrase) -> std::string {
    size_t at = message.find(phrase);
    if (at == std::string::npos) return "";
    size_t begin = at + phrase.size(), end = begin;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    return end > begin ? message.substr(begin, end - begin) : "";
  };
  if (std::string n = number_after("killed by signal "); !n.empty())
    return where + "killed by signal " + n;
  if (std::string n = number_after("exited with status "); !n.empty())
    return where + "exited with status " + n;
  if (message.find("no answer within") != std::string::npos) return where + "no answer in time";
  if (message.find("garbage on stdout") != std::string::npos) return where + "garbage on stdout";
  if (message.find("truncated frame") != std::string::npos) return where + "truncated frame";
  // Anything else (an in-process replay's error, a protocol violation): its first line, bounded.
  std::string line = message.substr(0, message.find('\n'));
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  return where + Shape(line);
}

std::string CrashSignature(const std::string& side, const std::string& message) {
  return "crash " + side + " " + CrashCause(message);
}

}  // namespace schedcheck::campaign
