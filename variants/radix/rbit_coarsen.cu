// PMPP 13.6 (seed 000), thread coarsening: each thread ranks and moves several
// keys, so a tile (and its bucket-table column) covers more keys: fewer
// blocks, a smaller table to scan, longer runs per bucket in the writes.
#include "common/table_variants.cuh"

namespace sortbench::radix {
constexpr auto kMatch = Ranking::match;
constexpr auto kThree = ScanStrategy::three_launch;
constexpr auto kBlelloch = BlockScanAlgo::blelloch;

SORTBENCH_REGISTER_VARIANT(rbit_info<8, 4, 256, kMatch, kThree, kBlelloch>());
#ifdef SORTBENCH_FULL_GRID  // the lean build keeps one point of the design
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 8, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 24, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 2, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 12, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 20, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 32, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 128, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<8, 16, 512, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<4, 16, 256, kMatch, kThree, kBlelloch>());
SORTBENCH_REGISTER_VARIANT(rbit_info<6, 16, 256, kMatch, kThree, kBlelloch>());
#endif
}  // namespace sortbench::radix
