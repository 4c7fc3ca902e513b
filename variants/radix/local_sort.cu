// PMPP 13.4 (seed 000), "optimizing for memory coalescing": each block sorts
// its keys by the current bit in shared memory (a 1-bit split: a block scan of
// the bits), so that the keys of one bucket are adjacent; the blocks' bucket
// sizes form a table stored bucket-major (all blocks' zeros, then all ones),
// whose exclusive scan gives each local bucket its output position, and the
// threads of a block write each local bucket to consecutive addresses.
// One key per thread, as in the book; the block scan (001) is the parameter.
#include "common/table_variants.cuh"

namespace sortbench::radix {
namespace {

template <int BlockThreads, BlockScanAlgo BScan>
VariantInfo local_sort_info() {
  using P = TablePolicy<BlockThreads, 1, 2, Ranking::split, ScanStrategy::three_launch, BScan>;
  return binary_table_info<1, P>(
      "local_sort",
      {{"block_threads", "tpb", std::to_string(BlockThreads)}, {"block_scan", "", to_string(BScan)}},
      "1-bit radix with a shared-memory local split per block, bucket-major block table, coalesced writes",
      "000 PMPP 13.4");
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(local_sort_info<256, BlockScanAlgo::blelloch>());
#ifdef SORTBENCH_FULL_GRID  // the lean build keeps one point of the design
SORTBENCH_REGISTER_VARIANT(local_sort_info<256, BlockScanAlgo::hillis_steele>());
SORTBENCH_REGISTER_VARIANT(local_sort_info<128, BlockScanAlgo::blelloch>());
SORTBENCH_REGISTER_VARIANT(local_sort_info<512, BlockScanAlgo::blelloch>());
SORTBENCH_REGISTER_VARIANT(local_sort_info<1024, BlockScanAlgo::blelloch>());
#endif

}  // namespace sortbench::radix
