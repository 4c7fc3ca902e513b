// VariantInfo builders for the reduce-then-scan designs (table_radix.cuh):
// the parameters of one TablePolicy become the label, so a value is written
// once, in the policy's template arguments.
#pragma once

#include "table_radix.cuh"

namespace sortbench::radix {

template <int RadixBits, class P>
Params rbit_params() {
  return {{"radix_bits", "rb", std::to_string(RadixBits)},
          {"items_per_thread", "ipt", std::to_string(P::kItemsPerThread)},
          {"block_threads", "tpb", std::to_string(P::kBlockThreads)},
          {"ranking", "", to_string(P::kRanking)},
          {"scan", "", to_string(P::kScan)},
          {"block_scan", "", to_string(P::kBlockScan)}};
}

// Common fields of every reduce-then-scan variant with 2^r buckets.
template <int RadixBits, class P>
VariantInfo binary_table_info(const std::string& design, Params params, std::string description,
                              std::string seed) {
  VariantInfo v;
  v.label = "radix." + design + "." + param_label(params);
  v.family = "radix";
  v.description = std::move(description);
  v.seed = std::move(seed);
  take_every_type(v);
  v.descending = true;
  v.stable = true;
  v.params = std::move(params);
  v.tile_keys = P::kTile;
  v.max_n = kMaxKeys;
  v.bytes_per_key = [](const Problem& p) {
    return table_bytes_per_key<P>(p, traffic::digit_passes(p, RadixBits));
  };
  v.unsupported = [](const Problem& p) { return table_smem_reason<P>(p); };
  v.make = make_table_radix<P, BinaryDigits<RadixBits>>;
  return v;
}

// PMPP 13.5 (r-bit digits) with 13.6 (items per thread) and the scan choices.
template <int RadixBits, int ItemsPerThread, int BlockThreads, Ranking Rank, ScanStrategy Scan,
          BlockScanAlgo BScan>
VariantInfo rbit_info() {
  using P = TablePolicy<BlockThreads, ItemsPerThread, 1 << RadixBits, Rank, Scan, BScan>;
  return binary_table_info<RadixBits, P>(
      "rbit", rbit_params<RadixBits, P>(),
      "r-bit LSD radix, reduce-then-scan: per-tile bucket counts, scan of the bucket-major table, "
      "local sort in shared memory, coalesced bucket writes",
      "000 PMPP 13.5 (r-bit), 13.6 (coarsening); 001 (scan choice)");
}

}  // namespace sortbench::radix
