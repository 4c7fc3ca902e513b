// PMPP 13.5 (seed 000), the book's way: r-bit digits, 2^r buckets per block,
// the local sort done as r successive 1-bit splits in shared memory. More bits
// per pass mean fewer passes over the keys, but each pass does r block scans
// and the bucket table grows by 2^r per block.
#include "common/table_variants.cuh"

namespace sortbench::radix {
constexpr auto kSplit = Ranking::split;
constexpr auto kThree = ScanStrategy::three_launch;
constexpr auto kBlelloch = BlockScanAlgo::blelloch;

SORTBENCH_REGISTER_VARIANT(rbit_info<2, 1, 256, kSplit, kThree, kBlelloch>());
#ifdef SORTBENCH_FULL_GRID  // the lean build keeps one point of the design
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 1, 256, kSplit, kThree, kBlelloch>());
// 13.6 applied to the split ranking: coarsening amortizes the block scans.
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 8, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<1, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<3, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<5, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<6, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<7, 1, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 4, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 16, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 8, 256, kSplit, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 8, 256, kSplit, kThree, BlockScanAlgo::hillis_steele>());
#endif
}  // namespace sortbench::radix
