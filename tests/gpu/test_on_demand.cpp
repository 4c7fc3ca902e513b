// On-demand points on the GPU: a point built on demand runs the code the same
// point compiled into the binary runs (both validate, medians agree within
// noise), and a point the binary lacks builds, loads and sorts correctly.
#include <dlfcn.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "gpu_test_util.hpp"
#include "sortbench/config.hpp"
#include "sortbench/on_demand.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/device.hpp"

using namespace sortbench;

namespace {

// Builds `label` on demand into a fresh cache and returns its variant,
// without registering it (the compiled-in twin holds the label).
VariantInfo build_unregistered(const std::string& label, const PointTypes& types, const std::string& cache) {
  const FamilySpace* space = family_space_of(label);
  EXPECT_NE(space, nullptr) << label;
  const auto point = space->parse_label(label);
  EXPECT_TRUE(point.has_value()) << label;
  on_demand::Planned p{label, space, *point, "", false};
  on_demand::Settings s;
  s.cache_dir = cache;
  s.jobs = 2;
  s.arch = on_demand::arch_of(device_sm_limits());
  const auto sum = on_demand::build({p}, types, s, std::cerr);
  EXPECT_EQ(sum.points.at(0).status, "compiled") << sum.points.at(0).reason;
  Registry& reg = Registry::instance();
  reg.begin_staging();
  void* h = ::dlopen(sum.points.at(0).plugin.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto staged = reg.end_staging();
  EXPECT_NE(h, nullptr) << ::dlerror();
  EXPECT_EQ(staged.size(), 1u);
  return staged.empty() ? VariantInfo{} : staged.front();
}

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/sortbench_on_demand_XXXXXX";
    path = ::mkdtemp(t);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST(OnDemand, BuiltPointMatchesTheCompiledInPoint) {
  SORTBENCH_REQUIRE_GPU();
  TempDir dir;
  const std::string label = "radix.onesweep.rb8.ipt22.tpb384.mb3";  // compiled in: the family's default point
  const VariantInfo* compiled = Registry::instance().find(label);
  ASSERT_NE(compiled, nullptr);
  const VariantInfo built = build_unregistered(label, {{KeyType::u32}, {ValueType::none, ValueType::u32}}, dir.path);
  ASSERT_TRUE(built.make);
  EXPECT_EQ(built.label, label);
  EXPECT_EQ(built.tile_keys, compiled->tile_keys);
  MeasureSettings m;
  m.budget_s = 1.0;
  m.min_samples = 20;
  m.max_rel_stderr = 0.002;
  Runner r(m, query_device(true));
  for (ValueType v : {ValueType::none, ValueType::u32}) {
    ASSERT_EQ(r.prepare({KeyType::u32, v, Order::ascending, std::size_t(1) << 24, *parse_distribution("uniform", nullptr), 1}), "");
    // Interleaved, so clock drift falls on both alike.
    PointResult a = r.measure(*compiled), b = r.measure(built), a2 = r.measure(*compiled), b2 = r.measure(built);
    for (const PointResult* x : {&a, &b, &a2, &b2}) {
      ASSERT_EQ(x->status, Status::ok) << x->reason;
      EXPECT_TRUE(x->validation.ok());
    }
    const double ta = std::min(a.time_ms.median, a2.time_ms.median), tb = std::min(b.time_ms.median, b2.time_ms.median);
    const double noise = std::max(0.02, 4 * (a.time_ms.rel_stderr + b.time_ms.rel_stderr));
    std::cout << label << (v == ValueType::none ? " keys" : " pairs") << ": compiled in " << ta << " ms, on demand " << tb
              << " ms (" << (tb / ta - 1) * 100 << " %, noise bound " << noise * 100 << " %)\n";
    EXPECT_LT(std::abs(tb / ta - 1), noise);
  }
}

TEST(OnDemand, PointTheBinaryLacksSortsEveryTileBoundary) {
  SORTBENCH_REQUIRE_GPU();
  TempDir dir;
  const std::string label = "radix.onesweep.rb6.ipt12.tpb256.mb2";
  ASSERT_EQ(Registry::instance().find(label), nullptr) << "compiled in: pick another point";
  const VariantInfo built = build_unregistered(label, {{KeyType::u32, KeyType::u64}, {ValueType::none, ValueType::u64}}, dir.path);
  ASSERT_TRUE(built.make);
  Runner r(MeasureSettings{}, query_device(false));
  const std::size_t tile = built.tile_keys;
  for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::u64, KeyType::i64})
    for (ValueType v : {ValueType::none, ValueType::u64})
      for (std::size_t n : {std::size_t(0), std::size_t(1), tile - 1, tile, tile + 1, 3 * tile + 7}) {
        ASSERT_EQ(r.prepare({k, v, Order::ascending, n, *parse_distribution("uniform", nullptr), 3}), "");
        const PointResult p = r.measure(built);
        EXPECT_EQ(p.status, Status::ok) << to_string(k) << "/" << to_string(v) << " n=" << n << ": " << p.reason;
      }
  // A key width it was not built for is declared, not crashed into.
  EXPECT_FALSE(built.supports_key(KeyType::u16));
}
