// Bytes each sort design moves through device memory per key, for the GB/s
// and fraction-of-copy-bandwidth figures. Formulas follow ../shared/anchors.md.
#pragma once

#include <cstddef>

#include "sortbench/variant.hpp"

namespace sortbench::traffic {

inline int digit_passes(const Problem& p, int digit_bits) {
  const int bits = int(key_bytes(p.key) * 8);
  return (bits + digit_bits - 1) / digit_bits;
}

// Onesweep kind: read keys once for the up-front histogram of all digits,
// then one read and one write of keys and values per digit pass.
inline double onesweep(const Problem& p, int digit_bits) {
  const double k = double(key_bytes(p.key)), v = double(value_bytes(p.value));
  return k + 2.0 * digit_passes(p, digit_bits) * (k + v);
}

// One Onesweep pass on the top digit (after its histogram's read of the
// keys), then each bucket read and written once by the block that sorts it.
inline double msd_then_local(const Problem& p) {
  const double k = double(key_bytes(p.key)), v = double(value_bytes(p.value));
  return k + 4.0 * (k + v);
}

// Reduce-then-scan (count, scan, scatter) per pass: keys read twice.
inline double reduce_then_scan(const Problem& p, int digit_bits) {
  const double k = double(key_bytes(p.key)), v = double(value_bytes(p.value));
  return digit_passes(p, digit_bits) * (3.0 * k + 2.0 * v);
}

// Reduce-then-scan whose global bucket table goes through device memory (PMPP
// 13.4-13.6, and the bit flags of Fig. 13.4 with one word per key): per pass
// keys read twice (count, scatter), keys and values written once, and the
// table (buckets_per_key u32 words per key) written by the count kernel,
// accessed table_scan_accesses times by its scan (three launches: 3, single
// pass: 2) and read by the scatter.
inline double reduce_then_scan_table(const Problem& p, int passes, double buckets_per_key,
                                     int table_scan_accesses) {
  const double k = double(key_bytes(p.key)), v = double(value_bytes(p.value));
  return passes * (3.0 * k + 2.0 * v + 4.0 * buckets_per_key * (2 + table_scan_accesses));
}

// Block sort of tiles, then log_ways(n / tile) merge passes of `ways` runs
// each; each pass reads and writes keys and values once.
inline double merge(const Problem& p, std::size_t tile_keys, int ways = 2) {
  const double kv = double(key_bytes(p.key) + value_bytes(p.value));
  double passes = 1;
  for (std::size_t t = tile_keys; t < p.n; t *= std::size_t(ways)) passes += 1;
  return 2.0 * kv * passes;
}

}  // namespace sortbench::traffic
