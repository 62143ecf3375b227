// Draws one value of a RapidCheck generator outside a property, from a seed: the same seed and
// size give the same value (RapidCheck's own splittable generator, no standard distribution), so
// `schedcheck campaign` can name every trace it runs by a number. A generator that gives up
// (rc::gen::suchThat) or a RealizeTrace that RC_FAILs throws; Sample turns that into an error.
#ifndef SCHEDCHECK_HARNESS_GENERATORS_SAMPLE_H_
#define SCHEDCHECK_HARNESS_GENERATORS_SAMPLE_H_

#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "rapidcheck.h"
#include "reference/base/result.h"

namespace schedcheck::generators {

// The size every sample is drawn at: RapidCheck's default maximum, the size its properties reach
// in their last cases.
inline constexpr int kSampleSize = 100;

// Runs `draw` as the body of rc::gen::exec (so `*gen` works inside it) with the random stream of
// `seed`. Errors: whatever `draw` threw, as text.
template <typename T>
Result<T> Sample(uint64_t seed, const std::function<T()>& draw) {
  try {
    return rc::gen::exec(draw)(rc::Random(seed), kSampleSize).value();
  } catch (const std::exception& e) {
    return Error{std::string("generator failed: ") + e.what()};
  } catch (const rc::detail::CaseResult& r) {
    return Error{"generator failed: " + r.description};
  } catch (...) {
    return Error{"generator failed (unknown exception)"};
  }
}

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_SAMPLE_H_
