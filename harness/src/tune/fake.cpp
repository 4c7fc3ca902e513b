// A deterministic stand-in for the GPU: registered fake variants and a timing
// model, so strategies, the cache, resume, sharding and fault isolation are
// tested on the CPU (tests/cpu/test_tune*.cpp, tests/cli/tune.sh).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "sortbench/family_space.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::tune {

namespace {

int param_int(const Params& ps, const std::string& name, int fallback) {
  for (const auto& p : ps)
    if (p.name == name) return std::stoi(p.value);
  return fallback;
}

class NoInstance : public Instance {
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return 0; }
  void run(const Buffers&, void*, std::size_t, cudaStream_t) override {}
};

VariantInfo fake_variant(const std::string& method, Params ps) {
  VariantInfo v;
  v.family = "fake";
  v.params = std::move(ps);
  v.label = "fake." + method + "." + param_label(v.params);
  v.description = "fake variant for CPU tests of sortbench tune";
  v.seed = "-";
  v.descending = true;
  v.stable = true;
  v.tile_keys = std::size_t(param_int(v.params, "block_threads", 1) * param_int(v.params, "items_per_thread", 1));
  v.bytes_per_key = [](const Problem& p) { return 2.0 * double(key_bytes(p.key) + value_bytes(p.value)); };
  const int rb = param_int(v.params, "radix_bits", 8);
  v.unsupported = [rb](const Problem& p) -> std::string {
    if (rb == 4 && p.n > (std::size_t(1) << 26)) return "4-bit digits are capped at 2^26 keys";
    return {};
  };
  v.make = [](const Problem&) -> std::unique_ptr<Instance> { return std::make_unique<NoInstance>(); };
  return v;
}

}  // namespace

// A family space whose points build in seconds without a GPU (host code
// only), for the CPU tests of on-demand points: its constraint prunes tiles
// above 2048 keys, and radix_bits 7 fails to compile.
FamilySpace fake_family_space() {
  FamilySpace s;
  s.method = "fake.ondemand";
  s.family = "fake";
  s.axes = {{"radix_bits", "rb", {4, 5, 6, 7, 8}, std::nullopt},
            {"items_per_thread", "ipt", {4, 8, 16}, std::nullopt},
            {"block_threads", "tpb", {128, 256}, std::nullopt}};
  s.why_not = [](const SpacePoint& p, const PointTypes&, std::size_t, std::size_t, int) -> std::string {
    if (p[1] * p[2] > 2048) return "a tile of " + std::to_string(p[1] * p[2]) + " keys, above the fake kernel's 2048";
    return {};
  };
  s.translation_unit = [label_of = [](const SpacePoint& p) {
                          return "fake.ondemand.rb" + std::to_string(p[0]) + ".ipt" + std::to_string(p[1]) + ".tpb" +
                                 std::to_string(p[2]);
                        }](const SpacePoint& p, const std::vector<KeyType>&) {
    const std::string rb = std::to_string(p[0]), ipt = std::to_string(p[1]), tpb = std::to_string(p[2]);
    return "#include <memory>\n#include <stdexcept>\n#include \"sortbench/variant.hpp\"\n"
           "static_assert(" + rb + " != 7, \"radix_bits 7 does not compile in the fake space\");\n"
           "namespace {\nsortbench::VariantInfo fake_point() {\n  sortbench::VariantInfo v;\n"
           "  v.label = \"" + label_of(p) + "\";\n  v.family = \"fake\";\n"
           "  v.description = \"a fake on-demand point (CPU tests)\";\n  v.seed = \"-\";\n"
           "  v.params = {{\"radix_bits\", \"rb\", \"" + rb + "\"}, {\"items_per_thread\", \"ipt\", \"" + ipt +
           "\"}, {\"block_threads\", \"tpb\", \"" + tpb + "\"}};\n"
           "  v.bytes_per_key = [](const sortbench::Problem&) { return 8.0; };\n"
           "  v.make = [](const sortbench::Problem&) -> std::unique_ptr<sortbench::Instance> {\n"
           "    throw std::runtime_error(\"a fake point runs nothing\");\n  };\n  return v;\n}\n}  // namespace\n"
           "SORTBENCH_REGISTER_VARIANT(fake_point());\n";
  };
  return s;
}

void register_fake_variants() {
  Registry& r = Registry::instance();
  if (r.find("fake.radix.rb8.ipt8.tpb256")) return;
  register_family_space(fake_family_space());
  for (int rb : {4, 6, 8})
    for (int ipt : {4, 8, 12, 16})
      for (int tpb : {128, 256, 512}) {
        VariantInfo v = fake_variant("radix", {{"radix_bits", "rb", std::to_string(rb)},
                                               {"items_per_thread", "ipt", std::to_string(ipt)},
                                               {"block_threads", "tpb", std::to_string(tpb)}});
        v.family_default = rb == 8 && ipt == 8 && tpb == 256;  // for best:fake where nothing is tuned
        r.add(v);
      }
  for (int ipt : {8, 16})
    for (int tpb : {128, 256})
      r.add(fake_variant("merge", {{"items_per_thread", "ipt", std::to_string(ipt)},
                                   {"block_threads", "tpb", std::to_string(tpb)}}));
  // The default baselines of a tune space, where no real ones are linked in
  // (the CPU tests): names only, timed by FakeEvaluator.
  for (const char* label : {"cub.radix_sort.off32", "cub.radix_sort.off64"}) {
    if (r.find(label)) continue;
    VariantInfo v = fake_variant("baseline", {});
    v.label = label;
    v.family = "cub";
    v.unsupported = nullptr;
    r.add(v);
  }
}

std::vector<KernelResources> fake_kernel_resources(const VariantInfo& v, const Problem&) {
  if (v.family != "fake") return {};
  KernelResources k;
  k.kernel = "pass";
  k.block_threads = param_int(v.params, "block_threads", 128);
  const int ipt = param_int(v.params, "items_per_thread", 1);
  k.registers_per_thread = 1 + 8 * ipt;
  k.dynamic_smem = std::size_t(k.block_threads) * std::size_t(ipt) * 4;
  k.max_dynamic_smem = 48 * 1024;
  // As cudaFuncGetAttributes reports it: whole warps within the register file.
  k.max_threads_per_block = std::min(1024, 65536 / (k.registers_per_thread * 32) * 32);
  return {k};
}

PointResult FakeEvaluator::evaluate(const std::string& label, const Workload& w) {
  ++calls;
  if (delay_s_ > 0) std::this_thread::sleep_for(std::chrono::duration<double>(delay_s_));
  const VariantInfo* v = Registry::instance().find(label);
  PointResult r = blank_result(label, v ? v->params : Params{}, v ? v->family : "cub", w);
  if (v && w.n > v->max_n) {  // as the runner skips it
    r.status = Status::skipped;
    r.reason = v->declared_skip_reason(w.problem());
    return r;
  }
  if (v && v->unsupported) {
    if (auto why = v->unsupported(w.problem()); !why.empty()) {
      r.status = Status::skipped;
      r.reason = why;
      return r;
    }
  }
  const bool pairs = w.value != ValueType::none;
  // The baselines: as on sm_90, 64-bit offsets are the faster call for keys,
  // 32-bit offsets for pairs.
  const bool off32 = label.size() > 6 && label.compare(label.size() - 6, 6, ".off32") == 0;
  double f = off32 ? (pairs ? 0.92 : 1.12) : 1.0;
  // Power: larger blocks draw more, so the most frugal point (128-thread
  // blocks) is not the fastest one at 2^22 keys and up.
  double watts = 500;
  if (v && v->family == "fake") {
    watts = 350 + 60 * std::log2(param_int(v->params, "block_threads", 256) / 128.0);
    const double rb = param_int(v->params, "radix_bits", 8), ipt = param_int(v->params, "items_per_thread", 8),
                 tpb = param_int(v->params, "block_threads", 256);
    const double rb_opt = pairs ? 8 : 6, ipt_opt = pairs ? 8 : 12;
    // fake.small_n.*: a small-input specialist, the fastest point where its cap lets it run.
    f = (label.rfind("fake.merge.", 0) == 0 ? 1.3 : label.rfind("fake.small_n.", 0) == 0 ? 0.4 : 0.8) + 0.05 * std::pow((rb - rb_opt) / 2, 2) +
        0.06 * std::pow(std::log2(ipt / ipt_opt), 2) + 0.04 * std::pow(std::log2(tpb / 256), 2);
    // Small inputs favour small blocks: more blocks for the SMs.
    if (w.n < (std::size_t(1) << 22)) f += 0.05 * std::log2(tpb / 128);
    f += 0.01 * double(stable_hash(label) % 1000) / 1000.0;
    // 64-bit keys: no fake point beats the library (best.json names it).
    if (key_bytes(w.key) == 8) f *= 1.5;
  }
  const double t = f * double(w.n) / double(1 << 20) * (pairs ? 1.5 : 1.0) + 1e-3;
  r.status = Status::ok;
  r.validation.checked = r.validation.sorted = r.validation.permutation = true;
  r.time_ms.samples = 10;
  r.time_ms.median = r.time_ms.mean = r.time_ms.min = r.time_ms.max = r.time_ms.q1 = r.time_ms.q3 = t;
  r.time_ms.stdev = t * 0.002 * std::sqrt(10.0);
  r.time_ms.rel_stderr = 0.002;
  r.stop_reason = "noise";
  r.gkeys_per_s = double(w.n) / (t * 1e-3) / 1e9;
  EnergyResult& e = r.energy;
  e.measured = true;
  e.joules = t * 1e-3 * watts;
  e.joules_per_gkey = e.joules / (double(w.n) / 1e9);
  e.watts_mean = watts;
  e.window_s = 1;
  e.sorts = std::size_t(std::ceil(1000 / t));
  e.rel_error = 0.002;
  e.method = "fake: the time model x a power model";
  return r;
}

}  // namespace sortbench::tune
