// PMPP 13.5 (seed 000) with a faster local ranking: warp-level multisplit
// (__match_any_sync finds the lanes that share a digit; per-warp digit
// counters in shared memory; one scan of the counters) instead of r 1-bit
// splits: one pass over the tile whatever r is.
#include "common/table_variants.cuh"

namespace sortbench::radix {
constexpr auto kMatch = Ranking::match;
constexpr auto kThree = ScanStrategy::three_launch;
constexpr auto kBlelloch = BlockScanAlgo::blelloch;

SORTBENCH_REGISTER_VARIANT(rbit_info<4, 1, 256, kMatch, kThree, kBlelloch>());
#ifdef SORTBENCH_FULL_GRID  // the lean build keeps one point of the design
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 1, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<1, 1, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<2, 1, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<6, 1, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 1, 512, kMatch, kThree, kBlelloch>());
#endif
}  // namespace sortbench::radix
