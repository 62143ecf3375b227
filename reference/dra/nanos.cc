#include "reference/dra/nanos.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

#include "reference/api/quantity.h"

namespace schedcheck::reference::dra {

namespace {

using U128 = unsigned __int128;
constexpr U128 kLimit = static_cast<U128>(1) << 126;

struct Suffix {
  std::string_view text;
  int exp10;
  int exp1024;
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 0, 1}, {"Mi", 0, 2}, {"Gi", 0, 3}, {"Ti", 0, 4}, {"Pi", 0, 5}, {"Ei", 0, 6},
    {"n", -9, 0}, {"u", -6, 0}, {"m", -3, 0}, {"", 0, 0},   {"k", 3, 0},  {"M", 6, 0},
    {"G", 9, 0},  {"T", 12, 0}, {"P", 15, 0}, {"E", 18, 0},
};

Error TooLarge(std::string_view text) {
  return Error{"quantity \"" + std::string(text) + "\" is too large"};
}

}  // namespace

Result<__int128> ParseNanos(std::string_view text) {
  // The grammar and its error texts are Quantity::Parse's.
  if (Result<Quantity> valid = Quantity::Parse(text); !valid.ok()) return valid.error();
  size_t i = 0;
  bool negative = false;
  if (text[i] == '+' || text[i] == '-') negative = text[i++] == '-';
  U128 num = 0;
  int exp10 = 9;  // nanos
  bool fraction = false;
  bool dropped = false;  // a non-zero fraction digit beyond 128 bits: inexact, rounded up
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    if (num >= kLimit / 10) {
      if (!fraction) return TooLarge(text);
      dropped |= c != '0';
      continue;
    }
    num = num * 10 + static_cast<unsigned>(c - '0');
    if (fraction) --exp10;
  }
  const std::string_view rest = text.substr(i);
  int exp1024 = 0;
  if (!rest.empty() && (rest[0] == 'e' || rest[0] == 'E') && rest.size() > 1 &&
      rest.find_first_not_of("eE+-0123456789") == std::string_view::npos) {
    size_t j = 1;
    bool negative_exp = false;
    if (rest[j] == '+' || rest[j] == '-') negative_exp = rest[j++] == '-';
    int e = 0;
    for (; j < rest.size(); ++j) e = e * 10 + (rest[j] - '0');
    exp10 += negative_exp ? -e : e;
  } else {
    for (const Suffix& s : kSuffixes) {
      if (rest == s.text) {
        exp10 += s.exp10;
        exp1024 = s.exp1024;
      }
    }
  }
  for (int k = 0; k < exp1024 && num != 0; ++k) {
    if (num >= kLimit / 1024) return TooLarge(text);
    num *= 1024;
  }
  for (; exp10 > 0 && num != 0; --exp10) {
    if (num >= kLimit / 10) return TooLarge(text);
    num *= 10;
  }
  U128 den = 1;
  for (; exp10 < 0; ++exp10) {
    if (den >= kLimit / 10) {
      num = num == 0 ? 0 : 1;  // far below a nano: rounds up to one
      den = 1;
      continue;
    }
    den *= 10;
  }
  U128 q = num / den;
  if (q * den != num || dropped) ++q;
  const U128 cap = static_cast<U128>(std::numeric_limits<int64_t>::max()) * 1000000000;
  if (exp1024 > 0 && q > cap) q = cap;
  const __int128 v = static_cast<__int128>(q);
  return negative ? -v : v;
}

}  // namespace schedcheck::reference::dra
