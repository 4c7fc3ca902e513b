// Measurer: the runners one sweep needs (sortbench/device.hpp). Only one
// workload's buffers are held at a time, across every GPU: a distributed
// point and the one-GPU baseline of the same total both need most of a GPU.
#include <chrono>
#include <map>
#include <thread>

#include "sortbench/device.hpp"
#include "sortbench/energy.hpp"

namespace sortbench {

struct Measurer::State {
  MeasureSettings m;
  int current = 0;  // the device single-GPU workloads that name none run on
  std::map<int, DeviceInfo> infos;
  std::map<int, std::unique_ptr<Runner>> runners;
  std::map<std::vector<int>, std::unique_ptr<DistributedRunner>> teams;
  std::string prepared;  // which runner holds which workload
  std::vector<LinkMeasurement> links;

  void release_all() {
    for (auto& [d, r] : runners) r->release();
    for (auto& [d, t] : teams) t->release();
    prepared.clear();
  }
};

Measurer::Measurer(const MeasureSettings& m) : st_(std::make_unique<State>()) {
  st_->m = m;
  cuda_check(cudaGetDevice(&st_->current), "cudaGetDevice");
}

Measurer::~Measurer() = default;

const DeviceInfo& Measurer::device(int ordinal) {
  State& s = *st_;
  auto it = s.infos.find(ordinal);
  if (it == s.infos.end()) {
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (ordinal < 0 || ordinal >= count)
      throw CudaError(cudaErrorInvalidDevice, "GPU " + std::to_string(ordinal) + ": this machine has " +
                                                  std::to_string(count) + (count == 1 ? " GPU" : " GPUs"));
    cuda_check(cudaSetDevice(ordinal), "cudaSetDevice");
    DeviceInfo d = query_device(true);
    // The idle draw from the energy counter over a window with no work of
    // this run (NVML's power reading averages over the last second or so, and
    // a GPU busy just before reads high).
    if (s.m.energy_window_s > 0 && d.energy_missing.empty()) {
      const energy::Counter c = energy::Counter::open(d.pci_bus_id);
      std::string why;
      if (const auto w = energy::measure_window(
              c, [] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); }, 1.0, &why))
        d.idle_w = w->watts_mean();
    }
    it = s.infos.emplace(ordinal, d).first;
  }
  return it->second;
}

const std::vector<LinkMeasurement>& Measurer::links() const { return st_->links; }

void Measurer::release() { st_->release_all(); }

std::string Measurer::context_lost() const {
  for (const auto& [d, r] : st_->runners)
    if (!r->context_lost().empty()) return r->context_lost();
  for (const auto& [d, t] : st_->teams)
    if (!t->context_lost().empty()) return t->context_lost();
  return {};
}

PointResult Measurer::measure(const VariantInfo& v, const Workload& w) {
  State& s = *st_;
  std::string id = to_string(w.key) + "|" + to_string(w.value) + "|" + to_string(w.order) + "|" + std::to_string(w.n) +
                   "|" + w.dist.name() + "|" + std::to_string(w.seed) + "|";
  if (w.gpus() > 1 && v.distributed()) {
    for (int d : w.devices) id += std::to_string(d) + ",";
    auto& team = s.teams[w.devices];
    if (!team) team = std::make_unique<DistributedRunner>(s.m, w.devices);
    if (s.prepared != id) {
      s.release_all();
      team->prepare(w);  // a workload-wide skip reason comes back from measure()
      s.prepared = id;
      const LinkMeasurement& link = team->prepared_link();
      if (!link.devices.empty()) s.links.push_back(link);
    }
    return team->measure(v);
  }
  // Single-GPU variants (and distributed ones on a one-GPU point, which skip
  // themselves) run on the first GPU named, with all n keys.
  const int dev = w.devices.empty() ? s.current : w.devices.front();
  Workload one = w;
  one.devices = {dev};
  id += "single:" + std::to_string(dev);
  auto& runner = s.runners[dev];
  if (!runner) runner = std::make_unique<Runner>(s.m, device(dev));
  if (s.prepared != id) {
    s.release_all();
    runner->prepare(one);
    s.prepared = id;
  }
  PointResult r = runner->measure(v);
  r.gpus = {dev};
  return r;
}

}  // namespace sortbench
