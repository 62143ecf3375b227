#include "harness/candidates/forget_events.h"

#include <utility>

namespace schedcheck::candidates {
namespace {

using namespace reference;  // NOLINT: the extension-point interfaces, in this file only

// The points every wrapper has; they delegate when the inner plugin implements them.
class ForgetfulBase : public EnqueueExtensions,
                      public PreEnqueuePlugin,
                      public ReservePlugin,
                      public PermitPlugin,
                      public PreBindPlugin,
                      public PostBindPlugin {
 public:
  explicit ForgetfulBase(std::unique_ptr<Plugin> inner) : inner_(std::move(inner)) {}
  std::string_view Name() const override { return inner_->Name(); }
  std::vector<ClusterEvent> EventsToRegister() const override { return {}; }

  Status PreEnqueue(const Pod& pod) override {
    auto* p = As<PreEnqueuePlugin>();
    return p ? p->PreEnqueue(pod) : Status();
  }
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override {
    auto* p = As<ReservePlugin>();
    return p ? p->Reserve(state, pod, node) : Status();
  }
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override {
    if (auto* p = As<ReservePlugin>()) p->Unreserve(state, pod, node);
  }
  Status Permit(CycleState& state, const Pod& pod, const std::string& node,
                int64_t* timeout_ns) override {
    auto* p = As<PermitPlugin>();
    return p ? p->Permit(state, pod, node, timeout_ns) : Status();
  }
  Status PreBindPreFlight(CycleState& state, const Pod& pod, const std::string& node) override {
    auto* p = As<PreBindPlugin>();
    return p ? p->PreBindPreFlight(state, pod, node) : Status(Code::kSkip);
  }
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override {
    auto* p = As<PreBindPlugin>();
    return p ? p->PreBind(state, pod, node) : Status();
  }
  void PostBind(CycleState& state, const Pod& pod, const std::string& node) override {
    if (auto* p = As<PostBindPlugin>()) p->PostBind(state, pod, node);
  }

 protected:
  template <typename T>
  T* As() const {
    return dynamic_cast<T*>(inner_.get());
  }

 private:
  std::unique_ptr<Plugin> inner_;
};

template <typename B>
class WithQueueSort : public B, public QueueSortPlugin {
 public:
  using B::B;
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override {
    return this->template As<QueueSortPlugin>()->Less(a, b);
  }
};

template <typename B>
class WithPreFilter : public B, public PreFilterPlugin {
 public:
  using B::B;
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override {
    return In()->PreFilter(state, pod, result);
  }
  bool HasPreFilterExtensions() const override { return In()->HasPreFilterExtensions(); }
  Status AddPod(CycleState& state, const Pod& pod, const PodInfo& add,
                const NodeInfo& node) override {
    return In()->AddPod(state, pod, add, node);
  }
  Status RemovePod(CycleState& state, const Pod& pod, const PodInfo& remove,
                   const NodeInfo& node) override {
    return In()->RemovePod(state, pod, remove, node);
  }

 private:
  PreFilterPlugin* In() const { return this->template As<PreFilterPlugin>(); }
};

template <typename B>
class WithFilter : public B, public FilterPlugin {
 public:
  using B::B;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override {
    return this->template As<FilterPlugin>()->Filter(state, pod, node);
  }
};

template <typename B>
class WithPostFilter : public B, public PostFilterPlugin {
 public:
  using B::B;
  Status PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                    PostFilterResult* result) override {
    return this->template As<PostFilterPlugin>()->PostFilter(state, pod, statuses, result);
  }
};

template <typename B>
class WithPreScore : public B, public PreScorePlugin {
 public:
  using B::B;
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override {
    return this->template As<PreScorePlugin>()->PreScore(state, pod, nodes);
  }
};

template <typename B>
class WithScore : public B, public ScorePlugin {
 public:
  using B::B;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override {
    return In()->Score(state, pod, node, score);
  }
  bool HasNormalizeScore() const override { return In()->HasNormalizeScore(); }
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override {
    return In()->NormalizeScore(state, pod, scores);
  }

 private:
  ScorePlugin* In() const { return this->template As<ScorePlugin>(); }
};

template <typename B>
class WithBind : public B, public BindPlugin {
 public:
  using B::B;
  Status Bind(CycleState& state, const Pod& pod, const std::string& node) override {
    return this->template As<BindPlugin>()->Bind(state, pod, node);
  }
};

constexpr int kExactPoints = 7;

// Bit i of the mask: the inner plugin implements exact point i (in Make's order).
int Mask(const Plugin* p) {
  const bool has[kExactPoints] = {dynamic_cast<const QueueSortPlugin*>(p) != nullptr,
                                  dynamic_cast<const PreFilterPlugin*>(p) != nullptr,
                                  dynamic_cast<const FilterPlugin*>(p) != nullptr,
                                  dynamic_cast<const PostFilterPlugin*>(p) != nullptr,
                                  dynamic_cast<const PreScorePlugin*>(p) != nullptr,
                                  dynamic_cast<const ScorePlugin*>(p) != nullptr,
                                  dynamic_cast<const BindPlugin*>(p) != nullptr};
  int mask = 0;
  for (int i = 0; i < kExactPoints; ++i) mask |= has[i] ? 1 << i : 0;
  return mask;
}

// Builds the wrapper class with exactly the mixins of `mask` (2^7 instantiations).
template <int I, typename B>
std::unique_ptr<Plugin> Make(int mask, std::unique_ptr<Plugin> inner) {
  if constexpr (I == kExactPoints) {
    return std::make_unique<B>(std::move(inner));
  } else {
    if ((mask & (1 << I)) == 0) return Make<I + 1, B>(mask, std::move(inner));
    if constexpr (I == 0) return Make<I + 1, WithQueueSort<B>>(mask, std::move(inner));
    if constexpr (I == 1) return Make<I + 1, WithPreFilter<B>>(mask, std::move(inner));
    if constexpr (I == 2) return Make<I + 1, WithFilter<B>>(mask, std::move(inner));
    if constexpr (I == 3) return Make<I + 1, WithPostFilter<B>>(mask, std::move(inner));
    if constexpr (I == 4) return Make<I + 1, WithPreScore<B>>(mask, std::move(inner));
    if constexpr (I == 5) return Make<I + 1, WithScore<B>>(mask, std::move(inner));
    if constexpr (I == 6) return Make<I + 1, WithBind<B>>(mask, std::move(inner));
  }
}

}  // namespace

std::unique_ptr<reference::Plugin> ForgetEvents(std::unique_ptr<reference::Plugin> inner) {
  const int mask = Mask(inner.get());
  return Make<0, ForgetfulBase>(mask, std::move(inner));
}

Result<std::shared_ptr<const reference::Registry>> RegistryForgettingEvents(
    const reference::Registry& base, const std::set<std::string>& plugins) {
  for (const std::string& name : plugins) {
    if (!base.Find(name)) return Error{"forget-events: unknown plugin \"" + name + "\""};
  }
  auto registry = std::make_shared<reference::Registry>();
  for (const std::string& name : base.Names()) {
    PluginFactory factory = *base.Find(name);
    if (plugins.count(name)) {
      factory = [inner = factory](const PluginArgs& args,
                                  const Handle& handle) -> Result<std::unique_ptr<Plugin>> {
        auto plugin = inner(args, handle);
        if (!plugin.ok()) return plugin.error();
        return ForgetEvents(std::move(*plugin));
      };
    }
    if (Outcome ok = registry->Register(name, std::move(factory)); !ok) return ok.error();
  }
  return std::shared_ptr<const reference::Registry>(std::move(registry));
}

}  // namespace schedcheck::candidates
