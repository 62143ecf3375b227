// Resource vectors: what a pod requests and what a node offers, in the integer units kube-scheduler
// compares (cpu in millicores, memory and storage in bytes, pods and extended resources as counts).
#ifndef SCHEDCHECK_REFERENCE_API_RESOURCE_H_
#define SCHEDCHECK_REFERENCE_API_RESOURCE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedcheck::reference {

inline constexpr std::string_view kResourceCpu = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";

// Kubernetes' IsScalarResourceName: extended resources (a "/" outside kubernetes.io), prefixed
// native resources (kubernetes.io/...), hugepages-* and attachable-volumes-*.
bool IsScalarResourceName(std::string_view name);
// Extended resources: a name with "/" that is not in the kubernetes.io namespace.
bool IsExtendedResourceName(std::string_view name);

// A scalar resource name, interned: equal names share one stored string, so comparing two names
// is comparing two pointers (NodeResourcesFit looks every requested scalar up on every node).
// Ordered by text. Converts to the name's text.
class ResourceName {
 public:
  explicit ResourceName(std::string_view name);
  const std::string& str() const { return *text_; }
  operator std::string_view() const { return *text_; }
  bool operator==(const ResourceName& other) const { return text_ == other.text_; }
  bool operator<(const ResourceName& other) const {
    return text_ != other.text_ && *text_ < *other.text_;
  }

 private:
  const std::string* text_;
};

struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pod_number = 0;  // only meaningful for node allocatable
  // Scalar resources sorted by name; absent = 0.
  std::vector<std::pair<ResourceName, int64_t>> scalar;

  int64_t Scalar(std::string_view name) const;
  // Inline: NodeResourcesFit looks requested scalars up on every node.
  int64_t Scalar(ResourceName name) const {
    // A handful of entries: a scan comparing pointers beats a search comparing texts.
    for (const auto& [entry, value] : scalar) {
      if (entry == name) return value;
    }
    return 0;
  }
  void SetScalar(std::string_view name, int64_t value);
  void SetScalar(ResourceName name, int64_t value);
  // Value of any resource by name (cpu, memory, ephemeral-storage, pods, or a scalar).
  int64_t Get(std::string_view name) const;
  void Set(std::string_view name, int64_t value);
  // Adds or subtracts every field (used for NodeInfo aggregates).
  void Add(const Resource& other);
  void Subtract(const Resource& other);
  // Per-field maximum (used for the init-container rule).
  void SetMax(const Resource& other);
  bool operator==(const Resource& other) const = default;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_RESOURCE_H_
