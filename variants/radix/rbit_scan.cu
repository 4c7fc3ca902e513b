// The scan of the global bucket table (seed 001): three launches (reduce,
// scan of the block sums, downsweep) against one single-pass chained scan with
// decoupled look-back; and inside a block Hillis-Steele (step-efficient)
// against Blelloch (work-efficient). The three-launch Blelloch point of this
// shape is registered in rbit_coarsen.cu.
#include "common/table_variants.cuh"

namespace sortbench::radix {
constexpr auto kMatch = Ranking::match;
constexpr auto kThree = ScanStrategy::three_launch;
constexpr auto kSingle = ScanStrategy::single_pass_lookback;
constexpr auto kBlelloch = BlockScanAlgo::blelloch;
constexpr auto kHs = BlockScanAlgo::hillis_steele;

SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 256, kMatch, kSingle, kBlelloch>());
#ifdef SORTBENCH_FULL_GRID  // the lean build keeps one point of the design
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 256, kMatch, kSingle, kHs>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 256, kMatch, kThree, kHs>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 1, 256, kMatch, kSingle, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 1, 256, Ranking::split, kSingle, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 1, 256, Ranking::split, kThree, kHs>());
#endif
}  // namespace sortbench::radix
