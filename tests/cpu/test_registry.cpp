#include <gtest/gtest.h>

#include <algorithm>

#include "sortbench/traffic.hpp"
#include "sortbench/distributed.hpp"
#include "sortbench/variant.hpp"

using namespace sortbench;

namespace {
VariantInfo fake(const std::string& label, const std::string& family) {
  VariantInfo v;
  v.label = label;
  v.family = family;
  v.bytes_per_key = [](const Problem&) { return 1.0; };
  v.make = [](const Problem&) -> std::unique_ptr<Instance> { return nullptr; };
  return v;
}
}  // namespace

TEST(Glob, Matches) {
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_TRUE(glob_match("radix.*", "radix.onesweep.rb8"));
  EXPECT_FALSE(glob_match("radix.*", "cub.radix_sort"));
  EXPECT_TRUE(glob_match("*.rb8.*", "radix.onesweep.rb8.ipt15"));
  EXPECT_TRUE(glob_match("cub.?adix_sort", "cub.radix_sort"));
  EXPECT_FALSE(glob_match("cub.radix", "cub.radix_sort"));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXXbYY"));
  EXPECT_TRUE(glob_match("", ""));
}

TEST(Registry, AddFindMatchAndOptIn) {
  Registry& r = Registry::instance();
  r.add(fake("t_reg.beta.x", "t_reg"));
  r.add(fake("t_reg.alpha.y", "t_reg"));
  auto host = fake("t_reghost.std", "t_reghost");
  host.opt_in = true;
  r.add(host);
  ASSERT_NE(r.find("t_reg.beta.x"), nullptr);
  EXPECT_EQ(r.find("t_reg.nope"), nullptr);
  const auto m = r.match({"t_reg.*"});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0]->label, "t_reg.alpha.y");  // label order, not registration order
  // "*" does not pull in opt-in variants; a pattern naming the family does.
  bool found_host = false;
  for (auto* v : r.match({"*"})) found_host |= v->label == "t_reghost.std";
  EXPECT_FALSE(found_host);
  EXPECT_EQ(r.match({"t_reghost.*"}).size(), 1u);
  EXPECT_EQ(r.match({"t_reg*"}).size(), 2u);  // "t_reg*" does not start with "t_reghost"
}

TEST(Registry, RejectsBadEntries) {
  Registry& r = Registry::instance();
  r.add(fake("t_bad.one", "t_bad"));
  EXPECT_THROW(r.add(fake("t_bad.one", "t_bad")), std::logic_error);        // duplicate
  EXPECT_THROW(r.add(fake("t_bad.a b", "t_bad")), std::logic_error);        // space
  EXPECT_THROW(r.add(fake("t_bad.*", "t_bad")), std::logic_error);          // wildcard
  EXPECT_THROW(r.add(fake("other.x", "t_bad")), std::logic_error);          // family not a prefix
  auto nomake = fake("t_bad.nomake", "t_bad");
  nomake.make = nullptr;
  EXPECT_THROW(r.add(nomake), std::logic_error);
}

TEST(Registry, OneDefaultPointPerFamily) {
  Registry& r = Registry::instance();
  r.add(fake("t_def.a", "t_def"));
  r.add(family_default_point(fake("t_def.b", "t_def")));
  EXPECT_EQ(r.family_default("t_def")->label, "t_def.b");
  EXPECT_EQ(r.family_default("t_nodef"), nullptr);
  const auto families = r.default_families();
  EXPECT_NE(std::find(families.begin(), families.end(), "t_def"), families.end());
  EXPECT_THROW(r.add(family_default_point(fake("t_def.c", "t_def"))), std::logic_error);  // a second default
}

TEST(Registry, SkipReasons) {
  auto v = fake("t_skip.x", "t_skip");
  v.key_types = {KeyType::u32};
  v.value_types = {ValueType::none};
  v.max_n = 100;
  EXPECT_EQ(v.skip_reason({KeyType::u32, ValueType::none, Order::ascending, 10}), "");
  EXPECT_NE(v.skip_reason({KeyType::u64, ValueType::none, Order::ascending, 10}).find("u64 not supported"),
            std::string::npos);
  EXPECT_NE(v.skip_reason({KeyType::u32, ValueType::u32, Order::ascending, 10}).find("pairs with u32 values not supported"),
            std::string::npos);
  EXPECT_NE(v.skip_reason({KeyType::u32, ValueType::none, Order::descending, 10}).find("descending"),
            std::string::npos);
  EXPECT_NE(v.skip_reason({KeyType::u32, ValueType::none, Order::ascending, 101}).find("cap of 100"),
            std::string::npos);
  v.max_n_why = "num_items is a 32-bit int";
  EXPECT_NE(v.skip_reason({KeyType::u32, ValueType::none, Order::ascending, 101}).find("cap of 100 (num_items is a 32-bit int)"),
            std::string::npos);
  // A variant takes the 32- and 64-bit key types, keys only or u32 values, unless it declares more.
  const VariantInfo plain = fake("t_skip.y", "t_skip");
  EXPECT_NE(plain.skip_reason({KeyType::f16, ValueType::none, Order::ascending, 10}).find("f16 not supported"),
            std::string::npos);
  EXPECT_NE(plain.skip_reason({KeyType::u32, ValueType::u64, Order::ascending, 10}).find("u64 values not supported"),
            std::string::npos);
  EXPECT_EQ(plain.skip_reason({KeyType::f64, ValueType::u32, Order::ascending, 10}), "");
  v.unsupported = [](const Problem& p) { return p.n == 7 ? std::string("seven") : std::string(); };
  EXPECT_EQ(v.skip_reason({KeyType::u32, ValueType::none, Order::ascending, 7}), "seven");
}

// Issue 16: a variant across GPUs runs only on points that span enough of
// them, and a single-GPU variant only on points of one.
TEST(Registry, GpusOfAPoint) {
  VariantInfo d = fake("t_gpus.d", "t_gpus");
  d.make = nullptr;
  d.min_gpus = 2;
  Problem p{KeyType::u32, ValueType::none, Order::ascending, 10};
  EXPECT_NE(d.skip_reason(p).find("needs at least 2, the point names 1"), std::string::npos) << d.skip_reason(p);
  p.gpus = 2;
  EXPECT_EQ(d.skip_reason(p), "");
  const VariantInfo one = fake("t_gpus.one", "t_gpus");
  EXPECT_NE(one.skip_reason(p).find("sorts on one GPU"), std::string::npos);
  // A distributed variant is made by make_distributed; without it, registration fails.
  EXPECT_THROW(Registry::instance().add(d), std::logic_error);
  d.make_distributed = [](const Problem&) -> std::unique_ptr<DistributedInstance> { return nullptr; };
  EXPECT_NO_THROW(Registry::instance().add(d));
  Registry::instance().remove(d.label);
}

TEST(Registry, ParamLabel) {
  EXPECT_EQ(param_label({{"radix_bits", "rb", "8"}, {"items_per_thread", "ipt", "15"}, {"scan", "", "single_pass_lookback"}}),
            "rb8.ipt15.single_pass_lookback");
  EXPECT_EQ(param_label({}), "");
}

TEST(Traffic, MatchesTheAnchorTable) {
  // ../shared/anchors.md: u32 keys, 8-bit digits: 36 bytes/key; 11-bit: 28;
  // u32 pairs: 68; u64 keys: 136.
  EXPECT_DOUBLE_EQ(traffic::onesweep({KeyType::u32, ValueType::none, Order::ascending, 1}, 8), 36);
  EXPECT_DOUBLE_EQ(traffic::onesweep({KeyType::u32, ValueType::none, Order::ascending, 1}, 11), 28);
  EXPECT_DOUBLE_EQ(traffic::onesweep({KeyType::u32, ValueType::u32, Order::ascending, 1}, 8), 68);
  EXPECT_DOUBLE_EQ(traffic::onesweep({KeyType::u64, ValueType::none, Order::ascending, 1}, 8), 136);
  EXPECT_DOUBLE_EQ(traffic::reduce_then_scan({KeyType::u32, ValueType::none, Order::ascending, 1}, 8), 48);
  EXPECT_DOUBLE_EQ(traffic::merge({KeyType::u32, ValueType::none, Order::ascending, 4096}, 4096), 8);
  EXPECT_DOUBLE_EQ(traffic::merge({KeyType::u32, ValueType::none, Order::ascending, 4097}, 4096), 16);
  // Four-way passes: 2^26 keys in 4352-key tiles take 14 two-way passes or 7 four-way ones.
  EXPECT_DOUBLE_EQ(traffic::merge({KeyType::u32, ValueType::none, Order::ascending, 1 << 26}, 4352), 8 * 15);
  EXPECT_DOUBLE_EQ(traffic::merge({KeyType::u32, ValueType::none, Order::ascending, 1 << 26}, 4352, 4), 8 * 8);
  EXPECT_DOUBLE_EQ(traffic::merge({KeyType::u32, ValueType::none, Order::ascending, 4 * 4096 + 1}, 4096, 4), 24);
  // One histogram read, the top pass and the bucket sort each read and write once.
  EXPECT_DOUBLE_EQ(traffic::msd_then_local({KeyType::u32, ValueType::none, Order::ascending, 1}), 20);
  EXPECT_DOUBLE_EQ(traffic::msd_then_local({KeyType::u64, ValueType::u32, Order::ascending, 1}), 56);
}
