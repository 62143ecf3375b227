// FreeRoom: a node's room (allocatable minus requested) per resource, as fitsRequest compares a
// request with it, in one small record. NodeResourcesFit keeps one per node by NodeInfo
// generation (accel/node_memo.h): in a full cluster most nodes reject most pods, and reading a
// node's scalar lists (allocatable and requested, each its own heap block) costs two cache misses
// per node and cycle, where the record is one array entry.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FREE_ROOM_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FREE_ROOM_H_

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include "reference/api/resource.h"
#include "reference/base/go_int.h"
#include "reference/framework/node_info.h"

namespace schedcheck::reference {

// The room on a NodeInfo itself, computed on each call: every value is the expression
// fitsRequest compares with.
class NodeRoom {
 public:
  explicit NodeRoom(const NodeInfo& node) : node_(node) {}
  int64_t Pods() const {
    return node_.allocatable().allowed_pod_number - static_cast<int64_t>(node_.pods().size());
  }
  int64_t MilliCpu() const {
    return GoSub(node_.allocatable().milli_cpu, node_.requested().milli_cpu);
  }
  int64_t Memory() const { return GoSub(node_.allocatable().memory, node_.requested().memory); }
  int64_t EphemeralStorage() const {
    return GoSub(node_.allocatable().ephemeral_storage, node_.requested().ephemeral_storage);
  }
  int64_t Scalar(ResourceName name) const {
    return GoSub(node_.allocatable().Scalar(name), node_.requested().Scalar(name));
  }

 private:
  const NodeInfo& node_;
};

// The same values, copied out of a NodeInfo once.
class FreeRoom {
 public:
  // Scalar kinds a record holds; a node with more (allocatable and requested together) is not
  // complete and is read through NodeRoom instead.
  static constexpr size_t kMaxScalars = 4;

  FreeRoom() = default;
  explicit FreeRoom(const NodeInfo& node) {
    const NodeRoom room(node);
    pods_ = room.Pods();
    milli_cpu_ = room.MilliCpu();
    memory_ = room.Memory();
    ephemeral_storage_ = room.EphemeralStorage();
    complete_ = true;
    for (const Resource* side : {&node.allocatable(), &node.requested()}) {
      for (const auto& [name, value] : side->scalar) {
        if (Find(name) != nullptr) continue;
        if (num_scalars_ == kMaxScalars) {
          complete_ = false;
          return;
        }
        scalars_[num_scalars_++] = {std::string_view(name).data(), room.Scalar(name)};
      }
    }
  }

  bool complete() const { return complete_; }
  int64_t Pods() const { return pods_; }
  int64_t MilliCpu() const { return milli_cpu_; }
  int64_t Memory() const { return memory_; }
  int64_t EphemeralStorage() const { return ephemeral_storage_; }
  // A kind neither side lists has room 0 - 0. REQUIRES: complete().
  int64_t Scalar(ResourceName name) const {
    const int64_t* value = Find(name);
    return value == nullptr ? 0 : *value;
  }

 private:
  // Interned names have one text each, so the text's address identifies the name.
  const int64_t* Find(ResourceName name) const {
    const char* id = std::string_view(name).data();
    for (uint8_t i = 0; i < num_scalars_; ++i) {
      if (scalars_[i].first == id) return &scalars_[i].second;
    }
    return nullptr;
  }

  int64_t pods_ = 0, milli_cpu_ = 0, memory_ = 0, ephemeral_storage_ = 0;
  std::array<std::pair<const char*, int64_t>, kMaxScalars> scalars_{};
  uint8_t num_scalars_ = 0;
  bool complete_ = false;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FREE_ROOM_H_
