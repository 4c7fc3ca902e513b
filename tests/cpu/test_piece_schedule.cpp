// The sample sort's exchange in pieces (variants/distributed/piece_schedule.hpp),
// played out on the host: every rank's sorted shard as tagged bytes, each
// round's sends copied from the 256-byte boundary at or before the piece into
// the receiver's slot, then every run read back where the schedule says it
// begins. Random cuts, empty pieces and cuts at odd positions included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "distributed/piece_schedule.hpp"

using sortbench::distributed::PieceSchedule;

namespace {

// Rank i's element at position e: its tag in the low bytes of `elem` bytes.
std::uint64_t tag(int i, std::size_t e) { return std::uint64_t(i) << 40 | e; }

std::vector<std::uint64_t> random_splits(std::mt19937& rng, int g, int pieces, const std::vector<std::size_t>& n) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < g; ++i) {
    std::vector<std::uint64_t> cut(std::size_t(g * pieces - 1));
    for (auto& c : cut) c = rng() % 3 == 0 ? 0 : rng() % (n[std::size_t(i)] + 1);  // empty pieces too
    std::sort(cut.begin(), cut.end());
    out.push_back(0);
    out.insert(out.end(), cut.begin(), cut.end());
    out.push_back(n[std::size_t(i)]);
  }
  return out;
}

void play(int g, int pieces, std::size_t elem, std::mt19937& rng) {
  std::vector<std::size_t> n(static_cast<std::size_t>(g));
  for (auto& x : n) x = rng() % 3000;
  const PieceSchedule ps(g, pieces, random_splits(rng, g, pieces, n));
  // Each rank's sorted shard A: 256-byte aligned (a vector of 256-byte blocks).
  std::vector<std::vector<unsigned char>> a(static_cast<std::size_t>(g)), b(static_cast<std::size_t>(g));
  for (int i = 0; i < g; ++i) {
    a[std::size_t(i)].assign((n[std::size_t(i)] * elem + 255) / 256 * 256, 0xee);
    for (std::size_t e = 0; e < n[std::size_t(i)]; ++e) {
      const std::uint64_t t = tag(i, e);
      std::memcpy(&a[std::size_t(i)][e * elem], &t, elem);
    }
  }
  for (int r = 0; r < g; ++r) {
    const std::size_t used = ps.recv_bytes_used(r, elem);
    EXPECT_LE(used, PieceSchedule::recv_bytes(ps.part_size(r), elem, g, pieces));
    b[std::size_t(r)].assign(used, 0xdd);
  }
  std::size_t sent = 0, received = 0;
  for (int k = 0; k < pieces; ++k)
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) {
        if (i == j) continue;
        const int bk = ps.bucket(j, k);
        const std::size_t c = ps.count(i, bk), ph = ps.phase(i, bk, elem), slot = ps.slot(j, k, i, elem);
        ASSERT_EQ(slot % 256, 0u);
        ASSERT_EQ((ps.start(i, bk) * elem - ph) % 256, 0u) << "sent from an unaligned address";
        ASSERT_LE(slot + ph + c * elem, b[std::size_t(j)].size());
        if (!c) continue;
        std::memcpy(&b[std::size_t(j)][slot], &a[std::size_t(i)][ps.start(i, bk) * elem - ph], ph + c * elem);
        sent += c;
      }
  // Every run where the schedule says, whole, after every round has landed
  // (a later slot overwriting an earlier one's tail would show here).
  for (int r = 0; r < g; ++r) {
    std::size_t part = 0;
    for (int k = 0; k < pieces; ++k) {
      EXPECT_EQ(ps.piece_offset(r, k), part);
      for (int j = 0; j < g; ++j) {
        const int bk = ps.bucket(r, k);
        const std::size_t c = ps.count(j, bk);
        part += c;
        if (j == r) continue;
        received += c;
        const std::size_t at = ps.run_start(r, k, j, elem);
        for (std::size_t e = 0; e < c; ++e) {
          std::uint64_t got = 0;
          std::memcpy(&got, &b[std::size_t(r)][(at + e) * elem], elem);
          const std::uint64_t want = tag(j, ps.start(j, bk) + e) & (elem == 8 ? ~0ull : (1ull << (8 * elem)) - 1);
          ASSERT_EQ(got, want) << "g " << g << " pieces " << pieces << " elem " << elem << ": rank " << r << " round "
                               << k << " from " << j << " element " << e;
        }
      }
    }
    EXPECT_EQ(ps.part_size(r), part);
  }
  std::size_t sent_total = 0, all = 0;
  for (int i = 0; i < g; ++i) sent_total += ps.sent_to_others(i), all += n[std::size_t(i)];
  EXPECT_EQ(sent_total, sent);
  EXPECT_EQ(sent, received);
  std::size_t parts = 0;
  for (int r = 0; r < g; ++r) parts += ps.part_size(r);
  EXPECT_EQ(parts, all);
}

}  // namespace

TEST(PieceSchedule, EveryRunLandsWholeInAnAlignedSlotOfItsOwn) {
  std::mt19937 rng(11);
  for (int g : {2, 3, 4, 8})
    for (int pieces : {1, 3, 8})
      for (std::size_t elem : {4u, 8u})
        for (int trial = 0; trial < 6; ++trial) play(g, pieces, elem, rng);
}

TEST(PieceSchedule, OnePieceIsThePlainAllToAll) {
  // Two ranks of 10 keys cut at 4 and 7: rank 0 keeps 4 and sends 6; rank 1 sends 7 and keeps 3.
  const PieceSchedule ps(2, 1, {0, 4, 10, 0, 7, 10});
  EXPECT_EQ(ps.part_size(0), 11u);
  EXPECT_EQ(ps.part_size(1), 9u);
  EXPECT_EQ(ps.sent_to_others(0), 6u);
  EXPECT_EQ(ps.sent_to_others(1), 7u);
  EXPECT_EQ(ps.slot(0, 0, 1, 4), 0u);
  EXPECT_EQ(ps.run_start(1, 0, 0, 4), 4u);  // rank 0's piece starts at its element 4: phase 16 bytes
}

TEST(PieceSchedule, RefusesSplitsThatDoNotFit) {
  EXPECT_THROW(PieceSchedule(2, 2, {0, 1, 2, 3, 4}), std::logic_error);
  EXPECT_THROW(PieceSchedule(2, 1, {0, 5, 4, 0, 1, 2}), std::logic_error);
}

TEST(PieceSchedule, PairwiseMergeOfAnyRunCountEndsInTheOutputAndNeverWritesWhatItReads) {
  using sortbench::distributed::merge_pairwise;
  using Run = sortbench::distributed::SortedRun<int, int>;
  std::mt19937 rng(5);
  auto overlaps = [](const int* a, std::size_t an, const int* b, std::size_t bn) { return a < b + bn && b < a + an; };
  for (int g = 1; g <= 9; ++g)
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<std::vector<int>> keys(static_cast<std::size_t>(g)), values(static_cast<std::size_t>(g));
      std::vector<std::pair<int, int>> want;
      std::vector<Run> runs;
      for (int j = 0; j < g; ++j) {
        auto& k = keys[std::size_t(j)];
        k.resize(rng() % 4 == 0 ? 0 : rng() % 50);
        for (int& x : k) x = int(rng() % 100);
        std::sort(k.begin(), k.end());
        for (std::size_t e = 0; e < k.size(); ++e) {
          values[std::size_t(j)].push_back(j * 1000 + int(e));  // the index order a stable merge keeps
          want.push_back({k[e], j * 1000 + int(e)});
        }
        runs.push_back({k.data(), values[std::size_t(j)].data(), k.size()});
      }
      std::sort(want.begin(), want.end());
      std::vector<int> out_k(want.size() + 1, -1), out_v(want.size() + 1, -1), x_k(want.size() + 1), x_v(want.size() + 1);
      auto merge = [&](const Run& a, const Run& b, int* k, int* v) {
        ASSERT_FALSE(overlaps(k, a.n + b.n, a.k, a.n) || overlaps(k, a.n + b.n, b.k, b.n)) << g << " runs";
        std::vector<std::pair<int, int>> m;
        for (std::size_t e = 0; e < a.n; ++e) m.push_back({a.k[e], a.v[e]});
        for (std::size_t e = 0; e < b.n; ++e) m.push_back({b.k[e], b.v[e]});
        std::sort(m.begin(), m.end());
        for (std::size_t e = 0; e < m.size(); ++e) k[e] = m[e].first, v[e] = m[e].second;
      };
      auto copy = [&](const Run& a, int* k, int* v) {
        ASSERT_FALSE(overlaps(k, a.n, a.k, a.n)) << g << " runs";
        std::copy(a.k, a.k + a.n, k);
        std::copy(a.v, a.v + a.n, v);
      };
      merge_pairwise<int, int>(runs, out_k.data(), out_v.data(), x_k.data(), x_v.data(), merge, copy);
      for (std::size_t e = 0; e < want.size(); ++e) {
        ASSERT_EQ(out_k[e], want[e].first) << g << " runs, element " << e;
        ASSERT_EQ(out_v[e], want[e].second) << g << " runs, element " << e;
      }
      EXPECT_EQ(out_k[want.size()], -1) << "wrote past the output";
    }
}

TEST(PieceSchedule, EqualRoundsPlaceSplittersAsEveryBucketsThSample) {
  using sortbench::distributed::round_weights;
  using sortbench::distributed::splitter_positions;
  for (int g = 1; g <= 8; ++g)
    for (int pieces = 1; pieces <= 8; ++pieces)
      for (std::size_t samples : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(4096), std::size_t(8191)}) {
        const auto at = splitter_positions(samples, g, round_weights(pieces, 100));
        ASSERT_EQ(at.size(), std::size_t(g * pieces - 1));
        for (std::size_t b = 1; b < std::size_t(g * pieces); ++b)
          EXPECT_EQ(at[b - 1], samples * b / std::size_t(g * pieces)) << g << " GPUs, " << pieces << " pieces";
      }
}

TEST(PieceSchedule, TaperedRoundsShrinkByTheirShareInEveryPart) {
  using sortbench::distributed::round_weights;
  using sortbench::distributed::splitter_positions;
  const auto w = round_weights(4, 60);
  ASSERT_EQ(w.size(), 4u);
  for (std::size_t k = 1; k < w.size(); ++k) EXPECT_EQ(w[k], w[k - 1] * 60 / 100);
  const std::size_t samples = 4 * 1000000;
  const int g = 4;
  const auto at = splitter_positions(samples, g, w);
  ASSERT_EQ(at.size(), std::size_t(g * 4 - 1));
  const double all = double(w[0] + w[1] + w[2] + w[3]);
  // Sub-bucket (r, k) runs from boundary r * 4 + k to the next; boundary 0 is 0, the last `samples`.
  std::vector<std::size_t> bound{0};
  bound.insert(bound.end(), at.begin(), at.end());
  bound.push_back(samples);
  for (int r = 0; r < g; ++r) {
    EXPECT_EQ(bound[std::size_t(r * 4)], samples * std::size_t(r) / std::size_t(g)) << "part " << r << " begins";
    for (int k = 0; k < 4; ++k) {
      const double share = double(bound[std::size_t(r * 4 + k + 1)] - bound[std::size_t(r * 4 + k)]) / (double(samples) / g);
      EXPECT_NEAR(share, double(w[std::size_t(k)]) / all, 1e-5) << "part " << r << ", round " << k;
    }
  }
  EXPECT_THROW(round_weights(4, 0), std::logic_error);
  EXPECT_THROW(round_weights(4, 101), std::logic_error);
  EXPECT_THROW(round_weights(0, 60), std::logic_error);
}
