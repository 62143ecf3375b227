// Large structures a command builds (a loaded trace, a replayer, decision logs) are handed to the
// process's exit to free instead of being destroyed object by object when the command returns:
// tearing down a million records one by one costs seconds (harness/bench/README.md) and frees
// nothing the exit would not. They stay reachable from a global list, so leak checkers do not
// report them. In a long-lived process calling a command many times (a test), they accumulate.
#ifndef SCHEDCHECK_HARNESS_CLI_KEEP_UNTIL_EXIT_H_
#define SCHEDCHECK_HARNESS_CLI_KEEP_UNTIL_EXIT_H_

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace schedcheck::cli {

// Moves `value` to the heap, where it lives until the process ends; returns it there.
template <typename T>
std::decay_t<T>& KeepUntilExit(T&& value) {
  // Never destroyed, not even by static destructors at exit.
  static auto* const kept = new std::vector<std::shared_ptr<void>>();
  auto held = std::make_shared<std::decay_t<T>>(std::forward<T>(value));
  kept->push_back(held);
  return *held;
}

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_KEEP_UNTIL_EXIT_H_
