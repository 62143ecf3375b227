// TieSet: the nodes that share the top total score, in name order. At thousands of identical
// nodes a cycle has thousands of ties; they are kept as name ranks into the snapshot's
// name-sorted node list (shared, immutable) and only turned into strings by whoever prints them.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::reference {

class TieSet {
 public:
  using NameTable = std::vector<std::string>;

  TieSet() = default;
  // REQUIRES: `ranks` ascending, each < names->size().
  TieSet(std::shared_ptr<const NameTable> names, std::vector<uint32_t> ranks)
      : names_(std::move(names)), ranks_(std::move(ranks)) {}

  // A tie set with its own name table, for names that are not ranked in a snapshot.
  // REQUIRES: `sorted_names` in name order.
  static TieSet FromNames(std::vector<std::string> sorted_names) {
    std::vector<uint32_t> ranks(sorted_names.size());
    for (uint32_t r = 0; r < ranks.size(); ++r) ranks[r] = r;
    return TieSet(std::make_shared<const NameTable>(std::move(sorted_names)), std::move(ranks));
  }

  size_t size() const { return ranks_.size(); }
  bool empty() const { return ranks_.empty(); }
  const std::string& operator[](size_t i) const { return (*names_)[ranks_[i]]; }

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::string*;
    using reference = const std::string&;
    Iterator(const TieSet* set, size_t i) : set_(set), i_(i) {}
    const std::string& operator*() const { return (*set_)[i_]; }
    const std::string* operator->() const { return &(*set_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }

   private:
    const TieSet* set_;
    size_t i_;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, ranks_.size()); }

  std::vector<std::string> Names() const { return std::vector<std::string>(begin(), end()); }
  bool operator==(const std::vector<std::string>& names) const {
    if (names.size() != size()) return false;
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] != (*this)[i]) return false;
    }
    return true;
  }

 private:
  std::shared_ptr<const NameTable> names_;
  std::vector<uint32_t> ranks_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_
