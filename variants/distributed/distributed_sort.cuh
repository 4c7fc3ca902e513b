// What every design of the distributed family shares: the run dispatched on
// the key and value types, the parts, phases and bytes sent it records, and
// each rank's plan of its temporary storage.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sortbench/device/key_traits.cuh"
#include "sortbench/distributed.hpp"
#include "phase_clock.cuh"

namespace sortbench::distributed {

// What every design shares: the run dispatched on the key and value types to
// Derived::run_typed<T, V>, and the parts, phases and bytes sent it records.
template <class Derived>
class TypedDistributedSort : public DistributedInstance {
 public:
  TypedDistributedSort(const Problem& p, std::vector<std::string> phases) : p_(p), clock_(std::move(phases)) {}
  std::vector<Part> parts() const override { return parts_; }
  std::vector<std::pair<std::string, double>> phases() const override { return clock_.read(); }
  std::vector<std::size_t> bytes_sent() const override { return sent_; }
  std::string local_sort() const override { return static_cast<const Derived*>(this)->local_.label(); }

 protected:
  void dispatch(const Team& team, const std::vector<Shard>& shards) {
#if defined(SORTBENCH_HAVE_NCCL)
    with_key_type_in<WordKeyTypes>(p_.key, [&](auto tag) {
      using T = typename decltype(tag)::type;
      with_value_type(p_.value, [&](auto vtag) {
        using V = typename decltype(vtag)::type;
        static_cast<Derived*>(this)->template run_typed<T, V>(team, shards);
      });
    });
#else
    (void)team;
    (void)shards;
    throw std::runtime_error("built without NCCL");
#endif
  }
  Problem p_;
  PhaseClock clock_;
  std::vector<Part> parts_;
  std::vector<std::size_t> sent_;
};

// Each rank's plan of its temporary storage, made once (the first temp_bytes
// query or warm-up run), so no timed run spends host time on CUB's size queries.
template <class Plan>
class PlanPerRank {
 public:
  template <class Make>
  const Plan& get(int rank, Make&& make) {
    auto it = plans_.find(rank);
    if (it == plans_.end()) it = plans_.emplace(rank, make(rank)).first;
    return it->second;
  }

 private:
  std::map<int, Plan> plans_;
};

}  // namespace sortbench::distributed
