// The kube-scheduler release whose behaviour the reference follows (docs/FORMATS.md, `compat`).
// v1.27 is the default; v1.37 covers what docs/DEVIATIONS.md ("Compatibility level 1.37") lists.
#ifndef SCHEDCHECK_REFERENCE_BASE_COMPAT_LEVEL_H_
#define SCHEDCHECK_REFERENCE_BASE_COMPAT_LEVEL_H_

#include <optional>
#include <string_view>

namespace schedcheck::reference {

enum class CompatLevel { kV1_27, kV1_37 };
// The number of levels: the columns of the features table (features.h).
inline constexpr int kNumCompatLevels = 2;

// "1.27" and "" (the default) are kV1_27; "1.37" is kV1_37; anything else is nullopt.
inline std::optional<CompatLevel> ParseCompatLevel(std::string_view text) {
  if (text.empty() || text == "1.27") return CompatLevel::kV1_27;
  if (text == "1.37") return CompatLevel::kV1_37;
  return std::nullopt;
}

inline std::string_view CompatLevelName(CompatLevel level) {
  return level == CompatLevel::kV1_37 ? "1.37" : "1.27";
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_BASE_COMPAT_LEVEL_H_
