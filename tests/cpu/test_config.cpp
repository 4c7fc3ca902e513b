#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "sortbench/config.hpp"

using namespace sortbench;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(Sizes, SingleValues) {
  EXPECT_EQ(parse_size("65536", "t"), 65536u);
  EXPECT_EQ(parse_size("2^16", "t"), 65536u);
  EXPECT_EQ(parse_size("5e6", "t"), 5000000u);
  EXPECT_EQ(parse_size("1Mi", "t"), 1u << 20);
  EXPECT_EQ(parse_size(" 0 ", "t"), 0u);
  EXPECT_EQ(parse_size("2^0", "t"), 1u);
}

TEST(Sizes, Ranges) {
  EXPECT_EQ(parse_sizes("2^16:2^28:x4", "t"),
            (std::vector<std::size_t>{1u << 16, 1u << 18, 1u << 20, 1u << 22, 1u << 24, 1u << 26, 1u << 28}));
  EXPECT_EQ(parse_sizes("1000:5000:+2000", "t"), (std::vector<std::size_t>{1000, 3000, 5000}));
  EXPECT_EQ(parse_sizes("10:100:x3", "t"), (std::vector<std::size_t>{10, 30, 90}));
  EXPECT_EQ(parse_sizes("1,2^4,7", "t"), (std::vector<std::size_t>{1, 16, 7}));
  EXPECT_EQ(parse_sizes("5:5:x2", "t"), (std::vector<std::size_t>{5}));
}

TEST(Sizes, Errors) {
  EXPECT_NE(error_of([] { parse_size("-5", "--n"); }).find("--n: size '-5' is negative"), std::string::npos);
  EXPECT_NE(error_of([] { parse_size("abc", "--n"); }).find("--n: size 'abc' is not a number"), std::string::npos);
  EXPECT_NE(error_of([] { parse_size("1.5e3x", "--n"); }).find("not a number"), std::string::npos);
  EXPECT_NE(error_of([] { parse_size("2.5", "--n"); }).find("not a number"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("2^10:2^4:x2", "--n"); }).find("runs backwards"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("1:10:x1", "--n"); }).find("at least 2"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("1:10:*2", "--n"); }).find("step must be"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("1:10", "--n"); }).find("needs a step"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("0:10:x2", "--n"); }).find("cannot start at 0"), std::string::npos);
  EXPECT_NE(error_of([] { parse_sizes("1,,2", "--n"); }).find("empty item"), std::string::npos);
  EXPECT_NE(error_of([] { parse_size("99999999999999999999999", "--n"); }).find("too large"), std::string::npos);
}

TEST(Config, FullDocument) {
  const auto c = parse_config(R"({
    "name": "t", "variants": ["cub.*"], "seed": 7,
    "measure": {"min_samples": 20, "budget_s": 1.5, "cold_l2": false},
    "sizes": ["2^10", 5], "distributions": ["uniform", "entropy:0.544"],
    "sweeps": [{"keys": ["u32", "f64"], "values": ["none"]},
               {"keys": "u32", "values": ["u32"], "orders": ["descending"], "sizes": [1]}]
  })", "t.json");
  EXPECT_EQ(c.name, "t");
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.measure.min_samples, 20);
  EXPECT_DOUBLE_EQ(c.measure.budget_s, 1.5);
  EXPECT_FALSE(c.measure.cold_l2);
  ASSERT_EQ(c.sweeps.size(), 2u);
  EXPECT_EQ(c.sweeps[0].keys, (std::vector<KeyType>{KeyType::u32, KeyType::f64}));
  EXPECT_EQ(c.sweeps[0].sizes, (std::vector<std::size_t>{1024, 5}));
  EXPECT_EQ(c.sweeps[0].distributions.size(), 2u);
  EXPECT_EQ(c.sweeps[1].values, (std::vector<ValueType>{ValueType::u32}));
  EXPECT_EQ(c.sweeps[1].orders, (std::vector<Order>{Order::descending}));
  EXPECT_EQ(c.sweeps[1].sizes, (std::vector<std::size_t>{1}));
  EXPECT_EQ(c.sweeps[1].distributions.size(), 2u);  // inherited from the top level
}

TEST(Config, ErrorsNameFileAndPath) {
  EXPECT_NE(error_of([] { parse_config("{\"name\": ", "bad.json"); }).find("bad.json: malformed JSON"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config("[1]", "a.json"); }).find("a.json: expected a JSON object"), std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config(R"({"sizes":[1],"distributions":["uniform"],"sweeps":[{"keys":["u32","u24"]}]})", "a.json");
            }).find("a.json: $.sweeps[0].keys[1]: unknown value 'u24'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":[1],"distributions":["gauss"]})", "a.json"); })
                .find("a.json: $.distributions[0]: unknown distribution 'gauss'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":[-3],"distributions":["uniform"]})", "a.json"); })
                .find("a.json: $.sizes[0]: size -3 is negative"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":["ten"],"distributions":["uniform"]})", "a.json"); })
                .find("a.json: $.sizes[0]: size 'ten' is not a number"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":[1],"distributions":["uniform"],"colour":1})", "a.json"); })
                .find("a.json: $.colour: unknown field"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"distributions":["uniform"]})", "a.json"); })
                .find("a.json: $.sizes: missing"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":[1]})", "a.json"); }).find("$.distributions: missing"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config(R"({"sizes":[1],"distributions":["uniform"],"measure":{"min_samples":0}})", "a.json");
            }).find("a.json: $.measure.min_samples: expected a number from 2"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config(R"({"sizes":[1],"distributions":["uniform"],"values":["u16"]})", "a.json");
            }).find("$.values[0]: unknown value 'u16'; expected one of none, u32, u64"),
            std::string::npos);
  EXPECT_NE(error_of([] { load_config_file("/nonexistent/x.json"); }).find("/nonexistent/x.json: cannot open"),
            std::string::npos);
}

TEST(Config, RoundTripThroughReportForm) {
  const auto c = parse_config(R"({"name":"rt","variants":["a*"],"sizes":["2^4:2^8:x2"],
    "distributions":["few_unique:5","entropy:0.201"],"keys":["i64"],"values":["u32"],"orders":["descending"]})",
                              "rt.json");
  const auto back = parse_config(config_to_json(c).dump(), "again.json");
  auto a = config_to_json(back), b = config_to_json(c);
  EXPECT_EQ(a["source"], "again.json");  // where it was read from, not where it was first written
  a.erase("source");
  b.erase("source");
  EXPECT_EQ(a, b);
  EXPECT_EQ(back.sweeps[0].sizes.size(), 5u);
}

TEST(Config, EmbeddedQuickConfigMatchesTheFile) {
  const auto c = parse_config(embedded_quick_config(), "embedded");
  EXPECT_EQ(c.name, "quick");
  std::ifstream in(std::string(SORTBENCH_SOURCE_DIR) + "/configs/quick.json");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), embedded_quick_config());
}

TEST(Config, EveryShippedConfigParses) {
  for (const char* name : {"quick.json"}) {
    EXPECT_NO_THROW(load_config_file(std::string(SORTBENCH_SOURCE_DIR) + "/configs/" + name)) << name;
  }
}

TEST(Distributions, NamesRoundTrip) {
  for (const char* n : {"uniform", "entropy:0.811", "entropy:0.544", "entropy:0.337", "entropy:0.201", "entropy:0.0",
                        "entropy:1.0", "sorted", "reverse", "nearly_sorted", "few_unique:16", "zipf", "normal",
                        "file:/tmp/k.bin"}) {
    std::string why;
    auto d = parse_distribution(n, &why);
    ASSERT_TRUE(d) << n << ": " << why;
    EXPECT_EQ(d->name(), n);
  }
  std::string why;
  EXPECT_FALSE(parse_distribution("entropy:0.5", &why));
  EXPECT_NE(why.find("0.544"), std::string::npos);
  EXPECT_FALSE(parse_distribution("few_unique:0", &why));
  EXPECT_FALSE(parse_distribution("sorted:3", &why));
  EXPECT_FALSE(parse_distribution("file:", &why));
  auto e = parse_distribution("entropy:0.544", &why);
  EXPECT_EQ(e->and_count, 2);
  EXPECT_EQ(parse_distribution("entropy:0", &why)->and_count, -1);
}

TEST(Types, Names) {
  for (KeyType k : kAllKeyTypes) EXPECT_EQ(parse_key_type(to_string(k)), k);
  EXPECT_FALSE(parse_key_type("u24"));
  EXPECT_EQ(parse_key_type("bf16"), KeyType::bf16);
  EXPECT_EQ(parse_value_type("u64"), ValueType::u64);
  EXPECT_EQ(key_bytes(KeyType::f64), 8u);
  EXPECT_EQ(value_bytes(ValueType::none), 0u);
  EXPECT_EQ(value_bytes(ValueType::u64), 8u);
  for (ValueType v : kAllValueTypes) EXPECT_EQ(parse_value_type(to_string(v)), v);
  EXPECT_EQ(key_bytes(KeyType::u8), 1u);
  EXPECT_EQ(key_bytes(KeyType::i8), 1u);
  EXPECT_EQ(key_bytes(KeyType::f16), 2u);
  EXPECT_EQ(key_bytes(KeyType::bf16), 2u);
  EXPECT_EQ(key_bytes(KeyType::i16), 2u);
  EXPECT_TRUE(is_float(KeyType::f16));
  EXPECT_TRUE(is_float(KeyType::bf16));
  EXPECT_FALSE(is_float(KeyType::i16));
  EXPECT_EQ(key_type_names(), "u8, i8, u16, i16, f16, bf16, u32, i32, f32, u64, i64, f64");
  EXPECT_TRUE(is_float(KeyType::f32));
  EXPECT_FALSE(is_float(KeyType::i64));
}

// types.hpp's list is the one list: the word types, the classes and the JSON
// Schemas' enums follow it.
TEST(Types, OneListOfKeyTypes) {
  std::vector<std::string> names;
  for (KeyType k : kAllKeyTypes) names.push_back(to_string(k));
  std::vector<KeyType> words;
  for (KeyType k : kAllKeyTypes)
    if (key_bytes(k) >= 4) words.push_back(k);
  EXPECT_EQ(std::vector<KeyType>(kWordKeyTypes.begin(), kWordKeyTypes.end()), words);
  EXPECT_EQ(words.size(), 6u);
  EXPECT_EQ(key_class(KeyType::i16), KeyClass::signed_integer);
  EXPECT_EQ(key_class(KeyType::u64), KeyClass::unsigned_integer);
  EXPECT_EQ(key_class(KeyType::bf16), KeyClass::floating);
  EXPECT_TRUE(is_signed_integer(KeyType::i8));
  EXPECT_FALSE(is_signed_integer(KeyType::f32));
  for (const char* schema : {"report.schema.json", "best.schema.json"}) {
    std::ifstream in(std::string(SORTBENCH_SOURCE_DIR) + "/schemas/" + schema);
    const nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json& props = std::string(schema) == "report.schema.json" ? doc["$defs"]["result"]["properties"]
                                                                              : doc["$defs"]["entry"]["properties"];
    EXPECT_EQ(props["key"]["enum"].get<std::vector<std::string>>(), names) << schema << ": $..key.enum";
  }
}

// A workload runs once however the sweeps that list it overlap.
TEST(Config, WorkloadsAreUnique) {
  // Two sweeps that --key u32 --values none would make alike: the quick config's shape.
  SweepConfig c = parse_config(R"({"sizes":["2^20"],"distributions":["uniform"],
    "sweeps":[{"keys":["u32","u64"],"values":["none"]},{"keys":["u32"],"values":["u32"]}]})", "q.json");
  std::size_t repeats = 99;
  EXPECT_EQ(expand_workloads(c, &repeats).size(), 3u);
  EXPECT_EQ(repeats, 0u);
  for (auto& s : c.sweeps) {
    s.keys = {KeyType::u32};
    s.values = {ValueType::none};
  }
  const auto ws = expand_workloads(c, &repeats);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(repeats, 1u);
  EXPECT_EQ(ws[0].key, KeyType::u32);
  EXPECT_EQ(ws[0].n, std::size_t(1) << 20);
  // Repeated sizes, distributions and keys within one sweep too; order of first appearance kept.
  const SweepConfig d = parse_config(R"({"sizes":["2^10","2^12","2^10"],"distributions":["uniform","entropy:0.544","uniform"],
    "keys":["u8","u8","bf16"],"values":["u64"]})", "d.json");
  const auto wd = expand_workloads(d, &repeats);
  EXPECT_EQ(wd.size(), 2u * 2u * 2u);
  EXPECT_EQ(repeats, 3u * 3u * 3u - 8u);
  EXPECT_EQ(wd[0].key, KeyType::u8);
  EXPECT_EQ(wd[0].value, ValueType::u64);
  EXPECT_EQ(wd[0].n, 1024u);
  EXPECT_EQ(wd[1].n, 4096u);
  EXPECT_EQ(wd.back().key, KeyType::bf16);
  // Another seed is another workload: not deduplicated against the first config.
  EXPECT_EQ(wd[0].seed, 1u);
}

TEST(Config, BestSelectorsAndBaselineGlobs) {
  const SweepConfig c = parse_config(R"({"sizes":[1],"distributions":["uniform"],"variants":["best:*","cub.*"]})", "b.json");
  EXPECT_TRUE(is_best_selector(c.variants[0]));
  EXPECT_EQ(best_selector_family(c.variants[0]), "*");
  EXPECT_FALSE(is_best_selector(c.variants[1]));
  EXPECT_EQ(c.baselines, (std::vector<std::string>{"cub.*", "thrust.*"}));  // the default
  EXPECT_NE(error_of([] { parse_config(R"({"sizes":[1],"distributions":["uniform"],"variants":["best:"]})", "b.json"); })
                .find("b.json: $.variants[0]: 'best:' needs a family name or glob"),
            std::string::npos);
}

// Issue 16: the GPUs a point spans, from a config (per sweep or for all) or --gpus.
TEST(Config, GpusPerSweep) {
  const SweepConfig c = parse_config(R"({"sizes": ["2^20"], "distributions": ["uniform"], "gpus": [0, 1],
    "sweeps": [{}, {"gpus": [2, 3, 1]}, {"keys": ["u64"]}]})", "g.json");
  ASSERT_EQ(c.sweeps.size(), 3u);
  EXPECT_EQ(c.sweeps[0].gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.sweeps[1].gpus, (std::vector<int>{2, 3, 1}));
  const auto ws = expand_workloads(c);
  ASSERT_EQ(ws.size(), 3u);  // the same workload on two device sets is two workloads
  EXPECT_EQ(ws[1].devices, (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(ws[1].problem().gpus, 3);
  EXPECT_EQ(ws[2].problem().gpus, 2);
  EXPECT_EQ(config_to_json(c)["sweeps"][1]["gpus"], nlohmann::json({2, 3, 1}));
  EXPECT_EQ(parse_config_json(config_to_json(c), "again").sweeps[1].gpus, c.sweeps[1].gpus);
  // No gpus: the current GPU, one per point.
  const SweepConfig plain = parse_config(R"({"sizes": [8], "distributions": ["uniform"]})", "p.json");
  EXPECT_EQ(expand_workloads(plain)[0].problem().gpus, 1);
  EXPECT_EQ(parse_gpu_list("0,3", "--gpus"), (std::vector<int>{0, 3}));
}

TEST(Config, GpusErrorsNameTheFieldAndWhatWasExpected) {
  auto message = [](const std::string& doc) {
    try {
      parse_config(doc, "g.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(R"({"sizes": [8], "distributions": ["uniform"], "gpus": []})").find("g.json: $.gpus: expected a non-empty array"),
            std::string::npos);
  EXPECT_NE(message(R"({"sizes": [8], "distributions": ["uniform"], "gpus": [0, -1]})").find("$.gpus[1]: expected a GPU ordinal"),
            std::string::npos);
  EXPECT_NE(message(R"({"sizes": [8], "distributions": ["uniform"], "sweeps": [{"gpus": [1, 1]}]})").find("$.sweeps[0].gpus[1]: GPU 1 is named twice"),
            std::string::npos);
  EXPECT_NE(message(R"({"sizes": [8], "distributions": ["uniform"], "gpus": "0,1"})").find("$.gpus"), std::string::npos);
  for (const char* bad : {"0,x", "0,,1", "5000", "1,1", "-1"}) {
    try {
      parse_gpu_list(bad, "--gpus");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--gpus: ", 0), 0u) << e.what();
    }
  }
}
