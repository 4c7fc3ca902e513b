// The library-call table (sortbench/library_calls.hpp): what a variant of a
// group finds, what it says when a key type is not loaded, a dry run's
// pending mark, a failed build's reason, and the on-demand plan of what to
// build (one unit per group and key type the variants need and lack).
#include <gtest/gtest.h>

#include "sortbench/library_calls.hpp"
#include "sortbench/on_demand.hpp"

using namespace sortbench;

namespace {

int made = 0;
std::unique_ptr<Instance> count_make(const Problem&) {
  ++made;
  return nullptr;
}

// A group of the test's own, apart from the binary's.
const bool declared = [] {
  library_calls::declare_group({"libtest_calls", "test/libtest_calls.cuh", "SORTBENCH_LIBTEST_CALLS",
                                {"libtest.a", "libtest.b"}, {"-DLIBTEST"}});
  return true;
}();

VariantInfo variant(const std::string& label, std::vector<KeyType> keys) {
  VariantInfo v;
  v.label = label;
  v.key_types = std::move(keys);
  return v;
}

Problem problem(KeyType k) {
  Problem p;
  p.key = k;
  p.n = 16;
  return p;
}

}  // namespace

TEST(LibraryCalls, ALabelOfNoGroupIsNotInTheBuild) {
  EXPECT_EQ(library_calls::group_of("libtest.none"), nullptr);
  EXPECT_EQ(library_calls::missing("libtest.none", KeyType::u32), "libtest.none for u32 keys is not in this build");
}

TEST(LibraryCalls, AKeyTypeNotLoadedSaysWhereItComesFrom) {
  ASSERT_NE(library_calls::group_of("libtest.b"), nullptr);
  EXPECT_EQ(library_calls::group_of("libtest.b")->name, "libtest_calls");
  EXPECT_EQ(library_calls::find("libtest.b", KeyType::i8), nullptr);
  const std::string why = library_calls::missing("libtest.b", KeyType::i8);
  EXPECT_NE(why.find("libtest.b for i8 keys is built on demand (test/libtest_calls.cuh)"), std::string::npos) << why;
  EXPECT_THROW(library_calls::make("libtest.b", problem(KeyType::i8)), std::runtime_error);
}

TEST(LibraryCalls, AnAddedKeyTypeIsFoundAndMadeAndCountedOnce) {
  const std::size_t before = library_calls::count();
  sortbench_add_library_call_v2("libtest.a", int(KeyType::u16), &count_make);
  EXPECT_EQ(library_calls::count(), before + 1);
  // A second instantiation of the same (label, key type) is ignored: the first stays.
  sortbench_add_library_call_v2("libtest.a", int(KeyType::u16), nullptr);
  EXPECT_EQ(library_calls::count(), before + 1);
  EXPECT_EQ(library_calls::find("libtest.a", KeyType::u16), &count_make);
  EXPECT_EQ(library_calls::find("libtest.a", KeyType::u32), nullptr);
  EXPECT_EQ(library_calls::missing("libtest.a", KeyType::u16), "");
  made = 0;
  library_calls::make("libtest.a", problem(KeyType::u16));
  EXPECT_EQ(made, 1);
}

TEST(LibraryCalls, PendingPlansWithoutMakingAndAFailureGivesItsReason) {
  library_calls::mark_pending("libtest_calls", KeyType::f64);
  EXPECT_EQ(library_calls::missing("libtest.a", KeyType::f64), "");
  EXPECT_EQ(library_calls::missing("libtest.b", KeyType::f64), "");
  EXPECT_THROW(library_calls::make("libtest.a", problem(KeyType::f64)), std::runtime_error);
  library_calls::mark_failed("libtest_calls", KeyType::f64, "on-demand build failed: error: no such header");
  EXPECT_EQ(library_calls::missing("libtest.b", KeyType::f64), "on-demand build failed: error: no such header");
  try {
    library_calls::make("libtest.b", problem(KeyType::f64));
    ADD_FAILURE() << "made a call whose build failed";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "on-demand build failed: error: no such header");
  }
}

TEST(LibraryCalls, ThePlanIsOneUnitPerGroupAndKeyTypeNeededAndLacking) {
  sortbench_add_library_call_v2("libtest.a", int(KeyType::i16), &count_make);
  sortbench_add_library_call_v2("libtest.b", int(KeyType::i16), &count_make);
  const VariantInfo a = variant("libtest.a", {KeyType::i16, KeyType::i32, KeyType::i64});
  const VariantInfo b = variant("libtest.b", {KeyType::i16, KeyType::i32});
  const VariantInfo other = variant("libtest.none", {KeyType::i32});
  PointTypes types;
  types.keys = {KeyType::i16, KeyType::i32, KeyType::i64, KeyType::u8};
  const auto units = on_demand::plan_library_calls({&a, &b, &other}, types);
  // i16 is loaded for both labels; i32 is needed by both (one unit); i64 by a
  // only; u8 by neither; a label of no group needs nothing.
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].label, "libtest_calls.i32");
  EXPECT_EQ(units[1].label, "libtest_calls.i64");
  for (const auto& u : units) {
    ASSERT_NE(u.group, nullptr);
    EXPECT_EQ(u.group->macro, "SORTBENCH_LIBTEST_CALLS");
    EXPECT_EQ(u.space, nullptr);
    EXPECT_FALSE(u.compiled_in);
  }
  EXPECT_EQ(units[0].key, KeyType::i32);
  EXPECT_EQ(units[1].key, KeyType::i64);
}

TEST(LibraryCalls, ADryRunMarksItsUnitsPending) {
  const VariantInfo a = variant("libtest.a", {KeyType::bf16});
  PointTypes types;
  types.keys = {KeyType::bf16};
  const auto units = on_demand::plan_library_calls({&a}, types);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_NE(library_calls::missing("libtest.a", KeyType::bf16), "");
  on_demand::register_placeholders(units);
  EXPECT_EQ(library_calls::missing("libtest.a", KeyType::bf16), "");
  EXPECT_EQ(library_calls::missing("libtest.b", KeyType::bf16), "");
}

TEST(LibraryCalls, AVariantMadeFromTheTableSkipsAKeyTypeNotLoadedAndMakesALoadedOne) {
  sortbench_add_library_call_v2("libtest.b", int(KeyType::u64), &count_make);
  const VariantInfo v = library_calls::made_from_table(variant("libtest.b", {KeyType::u64, KeyType::i8}));
  ASSERT_TRUE(v.unsupported && v.make);
  EXPECT_EQ(v.unsupported(problem(KeyType::u64)), "");
  EXPECT_EQ(v.skip_reason(problem(KeyType::u64)), "");
  EXPECT_NE(v.skip_reason(problem(KeyType::i8)).find("built on demand"), std::string::npos);
  made = 0;
  v.make(problem(KeyType::u64));
  EXPECT_EQ(made, 1);
  EXPECT_THROW(v.make(problem(KeyType::i8)), std::runtime_error);
}
