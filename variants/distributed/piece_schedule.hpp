// The exchange of the sample sort in pieces: rank r's part of the output is
// `pieces` sub-buckets (r * pieces .. r * pieces + pieces - 1 of g * pieces,
// cut at splitters), and round k moves sub-bucket k of every part, so each
// rank can merge round k's runs while round k + 1 is on the wire. With one
// piece it is the plain all-to-all. Host logic only (tests/cpu).
//
// Every piece a rank receives goes into a slot of its own that starts on 256
// bytes and keeps the sender's alignment phase: the sender sends from the
// 256-byte boundary at or before its piece (the few elements before it come
// along and are ignored), so NCCL copies between aligned addresses wherever
// the splitters cut (unaligned copies ran at about half the link's rate on
// two H200s). Slots follow round by round, then by sender. The piece a rank
// keeps is read where it lies in its own sorted shard, never copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sortbench::distributed {

class PieceSchedule {
 public:
  // splits: every rank's g * pieces + 1 cut positions in its sorted shard (0,
  // the sub-bucket boundaries, its size), rank after rank, as gathered.
  PieceSchedule(int g, int pieces, std::vector<std::uint64_t> splits)
      : g_(g), pieces_(pieces), splits_(std::move(splits)) {
    const std::size_t per = std::size_t(g) * std::size_t(pieces) + 1;
    if (g < 1 || pieces < 1 || splits_.size() != std::size_t(g) * per)
      throw std::logic_error("PieceSchedule: " + std::to_string(splits_.size()) + " split positions for " +
                             std::to_string(g) + " ranks of " + std::to_string(pieces) + " pieces");
    for (int i = 0; i < g; ++i)
      for (std::size_t b = 1; b < per; ++b)
        if (splits_[std::size_t(i) * per + b] < splits_[std::size_t(i) * per + b - 1])
          throw std::logic_error("PieceSchedule: rank " + std::to_string(i) + "'s split positions decrease");
  }

  int gpus() const { return g_; }
  int pieces() const { return pieces_; }
  // The sub-bucket rank r receives in round k.
  int bucket(int r, int k) const { return r * pieces_ + k; }
  // Element index in rank i's sorted shard where sub-bucket b begins, and its size there.
  std::size_t start(int i, int b) const { return std::size_t(at(i, b)); }
  std::size_t count(int i, int b) const { return std::size_t(at(i, b + 1) - at(i, b)); }
  // Bytes rank i sends before its piece of sub-bucket b (from the 256-byte boundary at or before it).
  std::size_t phase(int i, int b, std::size_t elem) const { return start(i, b) * elem % 256; }
  // Byte offset on rank r of the slot that takes the piece from rank j in round k (j != r).
  std::size_t slot(int r, int k, int j, std::size_t elem) const {
    std::size_t off = 0;
    for (int kk = 0; kk <= k; ++kk)
      for (int jj = 0; jj < g_; ++jj) {
        if (jj == r) continue;
        if (kk == k && jj == j) return off;
        off = (off + phase(jj, bucket(r, kk), elem) + count(jj, bucket(r, kk)) * elem + 255) / 256 * 256;
      }
    return off;
  }
  // Element index on rank r where the piece from rank j in round k begins.
  std::size_t run_start(int r, int k, int j, std::size_t elem) const {
    return (slot(r, k, j, elem) + phase(j, bucket(r, k), elem)) / elem;
  }
  // Receive bytes rank r uses (the end of its last slot).
  std::size_t recv_bytes_used(int r, std::size_t elem) const {
    if (g_ == 1) return 0;
    const int last = r == g_ - 1 ? g_ - 2 : g_ - 1;
    const int b = bucket(r, pieces_ - 1);
    return (slot(r, pieces_ - 1, last, elem) + phase(last, b, elem) + count(last, b) * elem + 255) / 256 * 256;
  }
  // Receive bytes that hold any schedule whose part on a rank is at most `cap` elements.
  static std::size_t recv_bytes(std::size_t cap, std::size_t elem, int g, int pieces) {
    return cap * elem + std::size_t(g) * std::size_t(pieces) * 512;
  }
  // Elements of round k's runs on rank r (all senders, its own included), and where they go in its part.
  std::size_t piece_size(int r, int k) const {
    std::size_t s = 0;
    for (int j = 0; j < g_; ++j) s += count(j, bucket(r, k));
    return s;
  }
  std::size_t piece_offset(int r, int k) const {
    std::size_t s = 0;
    for (int kk = 0; kk < k; ++kk) s += piece_size(r, kk);
    return s;
  }
  std::size_t part_size(int r) const { return piece_offset(r, pieces_); }
  // Elements rank r sends to other ranks, all rounds.
  std::size_t sent_to_others(int r) const {
    std::size_t s = 0;
    for (int j = 0; j < g_; ++j)
      if (j != r)
        for (int k = 0; k < pieces_; ++k) s += count(r, bucket(j, k));
    return s;
  }

 private:
  std::uint64_t at(int i, int b) const {
    return splits_[std::size_t(i) * (std::size_t(g_) * std::size_t(pieces_) + 1) + std::size_t(b)];
  }
  int g_, pieces_;
  std::vector<std::uint64_t> splits_;
};

// Each round's share of a part, in integer weights: round k weighs
// taper_percent^k / 100^k of round 0 (100: equal rounds). Only the last
// round's merge is left when the exchange ends, so rounds that shrink leave
// less of it, as long as each round's merge still ends before the next round
// lands (a merge must not fall behind the exchange it hides behind).
inline std::vector<std::uint64_t> round_weights(int pieces, int taper_percent) {
  if (pieces < 1 || taper_percent < 1 || taper_percent > 100)
    throw std::logic_error("round_weights: " + std::to_string(pieces) + " pieces, taper " + std::to_string(taper_percent) +
                           " %");
  std::vector<std::uint64_t> w{1000000};
  for (int k = 1; k < pieces; ++k) w.push_back(w.back() * std::uint64_t(taper_percent) / 100);
  return w;
}

// Where the g * pieces - 1 splitters sit among `samples` sorted samples:
// boundary (r, k) (sub-bucket r * pieces + k begins there) at the fraction
// (r + the weights of rounds 0..k-1 over all) / g of them, rounded down.
// Equal weights give samples * b / (g * pieces) for boundary b.
inline std::vector<std::size_t> splitter_positions(std::size_t samples, int g, const std::vector<std::uint64_t>& weights) {
  std::uint64_t all = 0;
  for (auto w : weights) all += w;
  std::vector<std::size_t> pos;
  for (int r = 0; r < g; ++r) {
    std::uint64_t before = 0;
    for (std::size_t k = 0; k < weights.size(); before += weights[k], ++k) {
      if (r == 0 && k == 0) continue;
      const unsigned __int128 num = (unsigned __int128)samples * (std::uint64_t(r) * all + before);
      pos.push_back(std::size_t(num / ((unsigned __int128)g * all)));
    }
  }
  return pos;
}

// One sorted run of keys (and values: null for keys only).
template <class T, class V>
struct SortedRun {
  const T* k;
  const V* v;
  std::size_t n;
};

// Runs in rank order merged pairwise into out (n of them in all), in
// ceil(log2 runs) passes: the last pass writes `out`, the passes before it
// alternate with `scratch` (as large as out), so no pass writes what it
// reads; an odd run out is copied into its pass's buffer. merge(a, b, k, v)
// merges runs a and b into k, v; copy(a, k, v) copies run a there.
template <class T, class V, class Merge, class Copy>
void merge_pairwise(std::vector<SortedRun<T, V>> runs, T* out_k, V* out_v, T* scratch_k, V* scratch_v, Merge merge,
                    Copy copy) {
  int passes = 0;
  while ((std::size_t(1) << passes) < runs.size()) ++passes;
  T* const buf_k[2] = {out_k, scratch_k};
  V* const buf_v[2] = {out_v, scratch_v};
  for (int pass = 0; runs.size() > 1; ++pass) {
    const int to = (passes - 1 - pass) % 2;
    std::vector<SortedRun<T, V>> merged;
    std::size_t off = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      T* k = buf_k[to] + off;
      V* v = buf_v[to] ? buf_v[to] + off : nullptr;
      std::size_t n = runs[i].n;
      if (i + 1 < runs.size()) {
        n += runs[i + 1].n;
        if (n) merge(runs[i], runs[i + 1], k, v);
      } else if (n) {
        copy(runs[i], k, v);
      }
      off += n;
      merged.push_back({k, v, n});
    }
    runs = std::move(merged);
  }
  if (runs.size() == 1 && runs[0].k != out_k && runs[0].n) copy(runs[0], out_k, out_v);
}

}  // namespace sortbench::distributed
