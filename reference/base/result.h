// Result<T>: a value or an error message, for infrastructure failures (I/O, parsing, config,
// corrupt traces). Scheduling outcomes use framework::Status instead. No exceptions cross our
// APIs; library exceptions are caught at the edge.
#ifndef SCHEDCHECK_REFERENCE_BASE_RESULT_H_
#define SCHEDCHECK_REFERENCE_BASE_RESULT_H_

#include <string>
#include <utility>
#include <variant>

namespace schedcheck {

// An error message that names what failed and where: "file F: line 3: field spec.priority: ...".
struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // REQUIRES: !ok().
  const Error& error() const { return std::get<1>(v_); }
  const std::string& message() const { return error().message; }

 private:
  std::variant<T, Error> v_;
};

// Result<void>.
class [[nodiscard]] Outcome {
 public:
  Outcome() = default;
  Outcome(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  static Outcome Ok() { return Outcome(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }
  const std::string& message() const { return error_.message; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_RESULT_H_
