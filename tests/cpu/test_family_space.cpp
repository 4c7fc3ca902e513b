// Family parameter spaces and on-demand planning on the CPU: labels, space
// expansion under filters, constraints, limits, and the build cache's keys.
// (Compiling, caching, torn entries and loading: tests/cli/on_demand.sh.)
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sortbench/config.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/on_demand.hpp"
#include "sortbench/tune.hpp"

using namespace sortbench;

namespace {

// a in {1, 2, 3}; b in {4, 8}, left out of labels at 4; a * b > 16 cannot run.
FamilySpace test_space() {
  FamilySpace s;
  s.method = "spacetest.m";
  s.family = "spacetest";
  s.axes = {{"alpha", "a", {1, 2, 3}, std::nullopt}, {"beta", "b", {4, 8}, 4}};
  s.why_not = [](const SpacePoint& p, const PointTypes&, std::size_t, std::size_t, int) -> std::string {
    return p[0] * p[1] > 16 ? "alpha x beta above 16" : "";
  };
  s.translation_unit = [](const SpacePoint&, const std::vector<KeyType>&) { return std::string("// nothing\n"); };
  return s;
}

const FamilySpace& space() {
  static const FamilySpace* s = [] {
    register_family_space(test_space());
    return family_space_of("spacetest.m.a1");
  }();
  return *s;
}

tune::ParamFilter values(const std::string& name, std::vector<std::string> vs) {
  tune::ParamFilter f;
  f.name = name;
  f.values = std::move(vs);
  return f;
}

const PointTypes kU32{{KeyType::u32}, {ValueType::none}};

}  // namespace

TEST(FamilySpace, LabelsLeaveDefaultsOutAndParseBackInOneSpelling) {
  const FamilySpace& s = space();
  EXPECT_EQ(s.label({2, 4}), "spacetest.m.a2");
  EXPECT_EQ(s.label({2, 8}), "spacetest.m.a2.b8");
  EXPECT_EQ(s.full_params({2, 4}).size(), 2u);
  EXPECT_EQ(s.parse_label("spacetest.m.a2.b8"), (SpacePoint{2, 8}));
  EXPECT_EQ(s.parse_label("spacetest.m.a3"), (SpacePoint{3, 4}));
  EXPECT_FALSE(s.parse_label("spacetest.m.b8.a2"));  // components out of order
  EXPECT_FALSE(s.parse_label("spacetest.m.a2.b4"));  // a default spelled out
  EXPECT_FALSE(s.parse_label("spacetest.m.a5"));     // not a value of the axis
  EXPECT_FALSE(s.parse_label("spacetest.m.b8"));     // alpha has no default
  EXPECT_FALSE(s.parse_label("spacetest.m.a2.c1"));
  EXPECT_FALSE(s.parse_label("spacetest.mx.a2"));
  EXPECT_THROW(register_family_space(test_space()), std::logic_error);  // one declaration per method
}

// Issue 41: a mistyped on-demand label said only "matches no registered
// variant"; it now says what in it names no point of the space.
TEST(FamilySpace, LabelErrorsSayWhatNamesNoPoint) {
  const FamilySpace& s = space();
  const std::string form = "spacetest.m points are spacetest.m.a<alpha>[.b<beta> unless 4]";
  EXPECT_EQ(s.label_error("spacetest.m.a2.b8"), "");
  EXPECT_EQ(s.label_error("spacetest.m.a5"), "'a5': alpha (a) takes 1, 2, 3, not 5");
  EXPECT_EQ(s.label_error("spacetest.m.a2.c1"), "'c1' names no parameter of spacetest.m; " + form);
  EXPECT_EQ(s.label_error("spacetest.m.b8"), "no alpha (a<alpha>); " + form);
  EXPECT_EQ(s.label_error("spacetest.m.a2.a3"), "'a3': alpha (a) given twice; " + form);
  EXPECT_EQ(s.label_error("spacetest.m.b8.a2"), "one spelling per point: spacetest.m.a<alpha>[.b<beta> unless 4]");
  EXPECT_EQ(s.label_error("spacetest.m.a2.b4"), "one spelling per point: spacetest.m.a<alpha>[.b<beta> unless 4]");
  EXPECT_EQ(unmatched_label_hint("spacetest.m.a9"), "'a9': alpha (a) takes 1, 2, 3, not 9");
  EXPECT_NE(unmatched_label_hint("spacetest.n.a1").find("points built on demand are of "), std::string::npos);
  EXPECT_NE(unmatched_label_hint("spacetest.n.a1").find("spacetest.m"), std::string::npos);
  EXPECT_EQ(unmatched_label_hint("spacetest.*"), "");  // a glob: no one label to explain
}

TEST(FamilySpace, PlanExpandsTheFilteredProductAndPrunesWithReasons) {
  space();
  const on_demand::Limits lim;
  auto all = on_demand::plan_space({"spacetest.*"}, {}, kU32, lim, "s.json: $.params", 1000);
  ASSERT_EQ(all.size(), 6u);
  std::size_t pruned = 0;
  for (const auto& p : all) {
    EXPECT_EQ(p.label, space().label(p.point));
    if (!p.pruned.empty()) {
      ++pruned;
      EXPECT_EQ(p.pruned, "alpha x beta above 16");
      EXPECT_EQ(p.point, (SpacePoint{3, 8}));
    }
  }
  EXPECT_EQ(pruned, 1u);
  // Filters apply to every axis, defaults included (beta 4 is not in the label).
  tune::ParamFilter range;
  range.name = "alpha";
  range.min = 2;
  auto some = on_demand::plan_space({"spacetest.m.*"}, {range, values("beta", {"4"})}, kU32, lim, "w", 1000);
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0].label, "spacetest.m.a2");
  EXPECT_EQ(some[1].label, "spacetest.m.a3");
  // A pattern that selects no method plans nothing.
  EXPECT_TRUE(on_demand::plan_space({"other.*"}, {}, kU32, lim, "w", 1000).empty());
}

TEST(FamilySpace, PlanRefusesUnknownParametersAndTooManyPoints) {
  space();
  const on_demand::Limits lim;
  try {
    on_demand::plan_space({"spacetest.*"}, {values("gamma", {"1"})}, kU32, lim, "s.json: $.params", 1000);
    FAIL() << "a filter on a parameter no space has was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("s.json: $.params.gamma: no family space"), std::string::npos) << e.what();
  }
  try {
    on_demand::plan_space({"spacetest.*"}, {}, kU32, lim, "s.json: $.params", 5);
    FAIL() << "6 points planned under a limit of 5";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 5 points"), std::string::npos) << e.what();
  }
}

TEST(FamilySpace, ExactLabelsPlanOnlyPointsTheBinaryLacks) {
  space();
  const on_demand::Limits lim;
  auto p = on_demand::plan_labels({"spacetest.m.a2.b8", "spacetest.m.*", "spacetest.m.zz", "cub.x"}, kU32, lim);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].label, "spacetest.m.a2.b8");
  EXPECT_EQ(p[0].point, (SpacePoint{2, 8}));
}

// The lean build holds some points at the key widths best.json picks them for
// only: asked for another key type, such a point is built on demand at every
// key type asked for, and a placeholder stands in for it until then.
TEST(FamilySpace, APointHeldAtOtherKeyWidthsIsBuiltOnDemand) {
  space();
  const std::string label = "spacetest.m.a1.b8";
  VariantInfo held;
  held.label = label;
  held.family = "spacetest";
  held.key_types = {KeyType::u64};
  held.bytes_per_key = [](const Problem&) { return 0.0; };
  held.make = [](const Problem&) -> std::unique_ptr<Instance> { return nullptr; };
  Registry::instance().add(held);
  const on_demand::Limits lim;
  const PointTypes u64{{KeyType::u64}, {ValueType::none}}, both{{KeyType::u32, KeyType::u64}, {ValueType::none}};
  EXPECT_TRUE(on_demand::plan_labels({label}, u64, lim).empty());
  auto planned = on_demand::plan_labels({label}, both, lim);
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_TRUE(planned[0].replaces);
  EXPECT_FALSE(planned[0].compiled_in);
  for (const auto& p : on_demand::plan_space({"spacetest.m.*"}, {}, u64, lim, "w", 1000))
    if (p.label == label) EXPECT_TRUE(p.compiled_in && !p.replaces);
  bool seen = false;
  for (const auto& p : on_demand::plan_space({"spacetest.m.*"}, {}, both, lim, "w", 1000))
    if (p.label == label) {
      seen = true;
      EXPECT_TRUE(!p.compiled_in && p.replaces);
    }
  EXPECT_TRUE(seen);
  on_demand::register_placeholders(planned);
  const VariantInfo* stand_in = Registry::instance().find(label);
  ASSERT_NE(stand_in, nullptr);
  EXPECT_TRUE(stand_in->supports_key(KeyType::u32));
  EXPECT_NE(stand_in->description.find("built when the sweep runs"), std::string::npos) << stand_in->description;
  Registry::instance().remove(label);
}

TEST(OnDemandCache, KeysFollowTheSourceAndTheArchitecture) {
  const std::string a = on_demand::cache_key("// point a\n", "90");
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a, on_demand::cache_key("// point a\n", "90"));
  EXPECT_NE(a, on_demand::cache_key("// point b\n", "90"));
  EXPECT_NE(a, on_demand::cache_key("// point a\n", "100"));
  // The flags are the binary's own CUDA flags, for the GPU's architecture.
  const auto f = on_demand::compile_flags("90");
  EXPECT_NE(std::find(f.begin(), f.end(), "--generate-code=arch=compute_90,code=[compute_90,sm_90]"), f.end());
  EXPECT_NE(std::find(f.begin(), f.end(), "-shared"), f.end());
}

TEST(OnDemandCache, DefaultFolderFollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(on_demand::default_cache_dir(), "/tmp/xdg-test/sortbench/on-demand");
  if (old) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1); else ::unsetenv("XDG_CACHE_HOME");
}

// A plugin's space: held back while the plugin loads, checked by the loader,
// then registered (plugin.cpp); what the loader refuses, and why.
TEST(FamilySpace, APluginsSpaceIsStagedAndChecked) {
  FamilySpace s = test_space();
  s.method = "stagetest.m";
  s.family = "stagetest";
  begin_space_staging();
  register_family_space(s);  // held, unchecked
  EXPECT_EQ(family_space_of("stagetest.m.a1"), nullptr);
  std::vector<FamilySpace> held = end_space_staging();
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(family_space_problem(held[0]), "");
  FamilySpace bad = s;
  bad.method = "other.m";
  EXPECT_NE(family_space_problem(bad).find("its method must start with its family and a dot"), std::string::npos);
  bad = s;
  bad.include_dirs = {"relative/dir"};
  EXPECT_EQ(family_space_problem(bad), "include_dirs must be absolute folders, not 'relative/dir'");
  bad = s;
  bad.axes[0].values.clear();
  EXPECT_NE(family_space_problem(bad).find("incomplete"), std::string::npos);
  register_family_space(std::move(held[0]));
  EXPECT_NE(family_space_of("stagetest.m.a1"), nullptr);
  EXPECT_EQ(family_space_problem(s), "'stagetest.m' is already declared");
  EXPECT_THROW(register_family_space(s), std::logic_error);
}

// A plugin space's own headers are part of its points' cache keys: the same
// headers give the same key wherever they are, other contents another.
TEST(OnDemandCache, KeysFollowAPluginSpacesHeaders) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("sortbench_space_headers_" + std::to_string(::getpid()));
  for (const char* d : {"one", "same", "other"}) fs::create_directories(root / d);
  std::ofstream(root / "one" / "kernel.cuh") << "// version 1\n";
  std::ofstream(root / "same" / "kernel.cuh") << "// version 1\n";
  std::ofstream(root / "other" / "kernel.cuh") << "// version 2\n";
  const std::string tu = "#include \"kernel.cuh\"\n";
  const std::string one = on_demand::cache_key(tu, "90", {(root / "one").string()});
  EXPECT_NE(one, on_demand::cache_key(tu, "90"));
  EXPECT_EQ(one, on_demand::cache_key(tu, "90", {(root / "same").string()}));
  EXPECT_NE(one, on_demand::cache_key(tu, "90", {(root / "other").string()}));
  fs::remove_all(root);
}
