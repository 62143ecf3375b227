// PoolAllocator: a stateless allocator for node-based containers that recycles freed blocks of
// each size instead of returning them to malloc. A failing scheduling attempt fills a map with
// one entry per rejected node (thousands) and frees it soon after; recycling the blocks spares
// malloc's bookkeeping and consolidation. Blocks are kept for the life of the thread (the peak
// of live entries); a block freed on another thread simply joins that thread's pool.
#ifndef SCHEDCHECK_REFERENCE_BASE_POOL_ALLOCATOR_H_
#define SCHEDCHECK_REFERENCE_BASE_POOL_ALLOCATOR_H_

#include <cstddef>
#include <new>

namespace schedcheck {

namespace pool_internal {

// One free list per block size (size rounded up to 16 bytes). Single blocks only: arrays go to
// operator new.
template <size_t kBlock>
class FreeList {
 public:
  static void* Take() {
    Node*& head = Head();
    if (head == nullptr) return ::operator new(kBlock);
    Node* n = head;
    head = n->next;
    return n;
  }
  static void Give(void* p) {
    Node*& head = Head();
    Node* n = static_cast<Node*>(p);
    n->next = head;
    head = n;
  }

 private:
  struct Node {
    Node* next;
  };
  static Node*& Head() {
    static thread_local Node* head = nullptr;
    return head;
  }
};

constexpr size_t RoundUp(size_t n) { return (n + 15) / 16 * 16; }

}  // namespace pool_internal

template <typename T>
class PoolAllocator {
 public:
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) {}  // NOLINT: rebinding is implicit by design

  T* allocate(size_t n) {
    if (n != 1) return static_cast<T*>(::operator new(n * sizeof(T)));
    return static_cast<T*>(pool_internal::FreeList<pool_internal::RoundUp(sizeof(T))>::Take());
  }
  void deallocate(T* p, size_t n) {
    if (n != 1) {
      ::operator delete(p);
      return;
    }
    pool_internal::FreeList<pool_internal::RoundUp(sizeof(T))>::Give(p);
  }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const {
    return true;
  }
};

}  // namespace schedcheck

#endif  // SCHEDCHECK_REFERENCE_BASE_POOL_ALLOCATOR_H_
