// The Onesweep parameter points: X(radix_bits, items_per_thread,
// block_threads, min_blocks_per_sm[, lookback_window]). The curated set holds
// 8-bit digits at 4096..16384-key tiles with 2..4 blocks per SM, one
// 8-items-per-thread point for 2^20-key inputs (the wide tune's pick there for
// u32 and u64 keys on the H100, results/h100-80gb-hbm3/best-onesweep-wide.json), the CUB-like
// shape with three 384-thread blocks per SM (56 registers), one point with
// the older 16-wide look-back window for comparison, the tile of anchors.md's
// GPUSorting OneSweep (512 x 15) at two blocks per SM, and the 512-thread, two-blocks-per-SM
// picks of H200 shape sweeps at 2^28 (ipt19 for u32 pairs:
// docs/experiments/issue15-steps.md; ipt32 for u32 keys and ipt18 for u64
// keys once a keys-only tile holds no ranks through the ranking:
// docs/experiments/issue15-steps.md), with ipt32 at three
// 384-thread blocks per SM, the u32 keys' pick at entropy 0.201 on both GPUs
// and at uniform on the H200 (docs/experiments/issue15-steps.md), and 32-bit
// tiles whose share of a digit is not a multiple of 32 keys where sorted keys
// (256 digits) or timestamps (32 digits) spread evenly (31 x 512 and 31 x 384
// for both, 30 x 512 for sorted keys, 23 x 384 for pairs), which kept a
// row's keys off one shared-memory bank before keys-only tiles were padded
// (docs/experiments/realistic-data.md, runs 32 and 33), and the four 32- and
// 31-key tiles without that padding (`.pad0`, keys only). Labels that
// results/<gpu>/best.json names must stay in the curated set. SORTBENCH_FULL_GRID opens the wider
// space, 11-bit digits included (3 passes for 32-bit keys instead of 4, but
// 8x the per-tile digit work; never the fastest on the H200, at 2^20 or at
// 2^28: docs/experiments/issue15-steps.md).
#pragma once

// The radix family's default point (configs' best:radix where this GPU's
// best.json has no entry): the tuned pick for u32 keys at 2^24..2^28 on the
// H200 (results/h200/best.json from build 6c2cd75).
#define SORTBENCH_ONESWEEP_DEFAULT_POINT 8, 22, 384, 3

#define SORTBENCH_ONESWEEP_GRID_CURATED(X) \
  X(8, 16, 384, 2)                         \
  X(8, 24, 384, 2)                         \
  X(8, 26, 384, 2)                         \
  X(8, 20, 384, 3)                         \
  X(8, 22, 384, 3)                         \
  X(8, 22, 384, 3, 16)                     \
  X(8, 16, 256, 4)                         \
  X(8, 15, 512, 2)                         \
  X(8, 18, 512, 2)                         \
  X(8, 19, 512, 2)                         \
  X(8, 32, 512, 2)                         \
  X(8, 32, 384, 3)                         \
  X(8, 31, 512, 2)                         \
  X(8, 30, 512, 2)                         \
  X(8, 31, 384, 3)                         \
  X(8, 23, 384, 2)                         \
  X(8, 32, 384, 3, 8, 0)                   \
  X(8, 31, 384, 3, 8, 0)                   \
  X(8, 32, 512, 2, 8, 0)                   \
  X(8, 31, 512, 2, 8, 0)                   \
  X(8, 8, 512, 2)

#ifdef SORTBENCH_FULL_GRID
#define SORTBENCH_ONESWEEP_GRID(X)       \
  SORTBENCH_ONESWEEP_GRID_CURATED(X)     \
  X(8, 20, 384, 2) X(11, 16, 384, 2) X(8, 15, 512, 1) X(8, 20, 384, 1) X(8, 15, 256, 1) X(8, 20, 256, 1) X(8, 12, 256, 3) X(8, 12, 384, 2) \
  X(8, 12, 256, 4) X(8, 15, 256, 3) X(8, 16, 512, 2) X(8, 20, 256, 3) X(8, 24, 256, 3) X(8, 28, 256, 3) \
  X(8, 17, 384, 3) X(8, 19, 384, 3) X(8, 21, 384, 3) X(8, 20, 448, 2) X(8, 28, 352, 2) X(8, 30, 320, 2) \
  X(8, 20, 384, 3, 4) X(8, 20, 384, 3, 32) X(8, 26, 384, 2, 16) X(8, 26, 384, 2, 32) \
  X(8, 12, 512, 2) X(8, 12, 1024, 1) X(8, 32, 256, 2) X(8, 4, 128, 8) X(8, 16, 64, 8) \
  X(4, 16, 256, 4) X(6, 16, 384, 2) X(7, 16, 384, 2) X(9, 16, 384, 2) X(10, 16, 384, 2) X(11, 15, 512, 1) \
  X(11, 20, 384, 1) X(11, 12, 256, 3)
#elif defined(SORTBENCH_LEAN_BUILD)
// The lean build (the default): the default point at every key width, and
// the points a committed best.json names at the widths it names them for
// (generated at configure time: cmake/lean_points.cmake, lean_points.cmake
// beside this file). Every other point of OnesweepSpace is built on demand.
#include "sortbench_lean_points.h"
#define SORTBENCH_ONESWEEP_LEAN_POINTS 1
#else
#define SORTBENCH_ONESWEEP_GRID(X) SORTBENCH_ONESWEEP_GRID_CURATED(X)
#endif
