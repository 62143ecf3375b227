// TieSet: the nodes that share the top total score, in name order. At thousands of identical
// nodes a cycle has thousands of ties; they are kept as a bitmap over name ranks into the
// snapshot's name-sorted node list (shared, immutable), a bit per node (a small allocation, where
// a rank list would take four bytes per tie), and only turned into strings by whoever prints them.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace schedcheck::reference {

class TieSet {
 public:
  using NameTable = std::vector<std::string>;

  TieSet() = default;
  // Bit r of `rank_bits` (word r / 64, bit r % 64) marks rank r.
  // REQUIRES: every marked rank < names->size().
  TieSet(std::shared_ptr<const NameTable> names, std::vector<uint64_t> rank_bits)
      : names_(std::move(names)), bits_(std::move(rank_bits)) {
    for (uint64_t word : bits_) size_ += static_cast<size_t>(std::popcount(word));
  }
  // One rank. REQUIRES: rank < names->size().
  static TieSet OfRank(std::shared_ptr<const NameTable> names, uint32_t rank) {
    std::vector<uint64_t> bits(rank / 64 + 1, 0);
    bits[rank / 64] = uint64_t{1} << (rank % 64);
    return TieSet(std::move(names), std::move(bits));
  }
  // A tie set with its own name table, for names that are not ranked in a snapshot.
  // REQUIRES: `sorted_names` in name order.
  static TieSet FromNames(std::vector<std::string> sorted_names) {
    std::vector<uint64_t> bits((sorted_names.size() + 63) / 64, ~uint64_t{0});
    if (sorted_names.size() % 64 != 0)
      bits.back() = (uint64_t{1} << (sorted_names.size() % 64)) - 1;
    return TieSet(std::make_shared<const NameTable>(std::move(sorted_names)), std::move(bits));
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Visits the marked ranks in rank (= name) order.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::string*;
    using reference = const std::string&;
    Iterator(const TieSet* set, size_t word, uint64_t rest) : set_(set), word_(word), rest_(rest) {
      Settle();
    }
    const std::string& operator*() const {
      return (*set_->names_)[word_ * 64 + std::countr_zero(rest_)];
    }
    const std::string* operator->() const { return &**this; }
    Iterator& operator++() {
      rest_ &= rest_ - 1;
      Settle();
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const Iterator& o) const { return word_ == o.word_ && rest_ == o.rest_; }

   private:
    // Moves past empty words to the next marked rank, or to the end.
    void Settle() {
      while (rest_ == 0 && word_ < set_->bits_.size() && ++word_ < set_->bits_.size())
        rest_ = set_->bits_[word_];
    }
    const TieSet* set_;
    size_t word_;
    uint64_t rest_;  // the marks of word_ not visited yet
  };
  Iterator begin() const { return Iterator(this, 0, bits_.empty() ? 0 : bits_[0]); }
  Iterator end() const { return Iterator(this, bits_.size(), 0); }

  std::vector<std::string> Names() const { return std::vector<std::string>(begin(), end()); }
  bool operator==(const std::vector<std::string>& names) const {
    return names.size() == size() && std::equal(names.begin(), names.end(), begin());
  }

 private:
  std::shared_ptr<const NameTable> names_;
  std::vector<uint64_t> bits_;
  size_t size_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_TIE_SET_H_
