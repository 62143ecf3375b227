#include "reference/api/quantity.h"

#include <cctype>
#include <limits>
#include <string>

namespace schedcheck::reference {
namespace {

using U128 = unsigned __int128;
constexpr U128 kMantissaLimit = static_cast<U128>(1) << 120;

Error BadQuantity(std::string_view text, std::string_view why) {
  return Error{"invalid quantity \"" + std::string(text) + "\": " + std::string(why)};
}

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

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view text) {
  Quantity q;
  size_t i = 0;
  if (text.empty()) return BadQuantity(text, "empty");
  if (text[i] == '+' || text[i] == '-') {
    q.negative_ = text[i] == '-';
    ++i;
  }
  size_t digits = 0;
  bool fraction = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (fraction) return BadQuantity(text, "two decimal points");
      fraction = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    ++digits;
    if (q.mantissa_ >= kMantissaLimit) {
      // Further digits cannot change the rounded int64 result meaningfully for integer digits;
      // for fraction digits they are dropped (we round up later only on exact representation).
      if (!fraction) ++q.exp10_;
      continue;
    }
    q.mantissa_ = q.mantissa_ * 10 + static_cast<unsigned>(c - '0');
    if (fraction) --q.exp10_;
  }
  if (digits == 0) return BadQuantity(text, "no digits");
  std::string_view rest = text.substr(i);
  if (!rest.empty() && (rest[0] == 'e' || rest[0] == 'E') && rest.size() > 1 &&
      (std::isdigit(static_cast<unsigned char>(rest[1])) || rest[1] == '-' || rest[1] == '+')) {
    size_t j = 1;
    bool neg = false;
    if (rest[j] == '+' || rest[j] == '-') neg = rest[j++] == '-';
    if (j >= rest.size()) return BadQuantity(text, "empty exponent");
    int e = 0;
    for (; j < rest.size(); ++j) {
      if (!std::isdigit(static_cast<unsigned char>(rest[j])))
        return BadQuantity(text, "bad exponent");
      e = e * 10 + (rest[j] - '0');
      if (e > 1000) return BadQuantity(text, "exponent too large");
    }
    q.exp10_ += neg ? -e : e;
    return q;
  }
  for (const Suffix& s : kSuffixes) {
    if (rest == s.text) {
      q.exp10_ += s.exp10;
      q.exp1024_ = s.exp1024;
      return q;
    }
  }
  return BadQuantity(text, "unknown suffix \"" + std::string(rest) + "\"");
}

// ceil(|value| * 10^extra_exp10) with the sign applied, saturated to int64.
int64_t Quantity::ScaledCeil(int extra_exp10) const {
  constexpr U128 kMax = static_cast<U128>(std::numeric_limits<int64_t>::max());
  U128 num = mantissa_;
  U128 den = 1;
  int e10 = exp10_ + extra_exp10;
  auto saturated = [&] {
    return negative_ ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  };
  for (int k = 0; k < exp1024_; ++k) {
    if (num > kMax * 4) return num == 0 ? 0 : saturated();
    num *= 1024;
  }
  for (; e10 > 0; --e10) {
    if (num == 0) break;
    if (num > kMax * 4) return saturated();
    num *= 10;
  }
  for (; e10 < 0; ++e10) {
    if (den > (static_cast<U128>(1) << 100)) {
      // The value is far below 1 unit: it rounds to 1 (up) if non-zero.
      num = (num + den - 1) / den;
      den = 1;
      if (num > 1) num = 1;
      continue;
    }
    den *= 10;
  }
  U128 q = num / den;
  bool inexact = q * den != num;
  if (q > kMax) return saturated();
  int64_t v = static_cast<int64_t>(q);
  // Kubernetes rounds towards +infinity for positives; for negatives the magnitude is also
  // rounded up (away from zero), as resource.Quantity's ScaledValue does.
  if (inexact) ++v;
  return negative_ ? -v : v;
}

int64_t Quantity::MilliValue() const { return ScaledCeil(3); }
int64_t Quantity::Value() const { return ScaledCeil(0); }

Result<int64_t> ParseResourceQuantity(std::string_view resource_name, std::string_view text) {
  Result<Quantity> q = Quantity::Parse(text);
  if (!q.ok()) return q.error();
  return resource_name == "cpu" ? q->MilliValue() : q->Value();
}

}  // namespace schedcheck::reference
