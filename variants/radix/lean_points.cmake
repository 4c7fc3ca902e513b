# The radix family's grid points in the lean build (cmake/lean_points.cmake):
# label -> the arguments of each design's point macro.

# radix.onesweep.rb8.ipt15.tpb512.mb2[.lw16][.pad0][.skip_constant_digits] -> 8, 15, 512, 2[, 16[, 0]]
# (OnesweepPolicy; onesweep.cu registers each point with and without skip_constant_digits)
function(sortbench_lean_onesweep label out)
  string(REGEX MATCH "^radix\\.onesweep\\.rb([0-9]+)\\.ipt([0-9]+)\\.tpb([0-9]+)\\.mb([0-9]+)(\\.lw([0-9]+))?(\\.pad([0-9]+))?(\\.skip_constant_digits)?$"
         _ "${label}")
  set(args "${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}, ${CMAKE_MATCH_3}, ${CMAKE_MATCH_4}")
  set(lw 8)
  if(CMAKE_MATCH_5)
    set(lw ${CMAKE_MATCH_6})
  endif()
  if(CMAKE_MATCH_7)
    string(APPEND args ", ${lw}, ${CMAKE_MATCH_8}")
  elseif(CMAKE_MATCH_5)
    string(APPEND args ", ${lw}")
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()
# The default point (SORTBENCH_ONESWEEP_DEFAULT_POINT) is registered at every
# width by onesweep.cu; radix.two_digit_msd_local_lsd runs its top passes and
# its fallback sort at rb8.ipt19.tpb512.mb2 (TwoDigitMsdPolicy::TopPass).
# Candidates of the realistic tune, which measures compiled-in points only:
# 32-bit tiles whose share of a digit is not a multiple of 32 keys where
# sorted keys (256 digits) or timestamps (32 digits) spread evenly over the
# digits (31 x 512 and 31 x 384 for both, 30 x 512 for sorted keys, 23 x 384
# for pairs). At 32 x 512 (64 keys a digit) a row's keys landed in one
# shared-memory bank (docs/experiments/realistic-data.md, run 32); keys-only
# tiles are padded since (run 33), pairs' are not. The same 32-bit key tiles
# without the padding (`.pad0`), for the inputs whose shares do not line up:
# the padding costs instructions in every key's reorder.
sortbench_lean_family(SORTBENCH_LEAN_ONESWEEP "^radix\\.onesweep\\." sortbench_lean_onesweep PER_WIDTH
  EXCLUDE radix.onesweep.rb8.ipt22.tpb384.mb3 radix.onesweep.rb8.ipt22.tpb384.mb3.skip_constant_digits
  ALWAYS radix.onesweep.rb8.ipt19.tpb512.mb2:32 radix.onesweep.rb8.ipt19.tpb512.mb2:64
         radix.onesweep.rb8.ipt31.tpb512.mb2:32 radix.onesweep.rb8.ipt30.tpb512.mb2:32
         radix.onesweep.rb8.ipt31.tpb384.mb3:32 radix.onesweep.rb8.ipt23.tpb384.mb2:32
         radix.onesweep.rb8.ipt32.tpb384.mb3.pad0:32 radix.onesweep.rb8.ipt31.tpb384.mb3.pad0:32
         radix.onesweep.rb8.ipt32.tpb512.mb2.pad0:32 radix.onesweep.rb8.ipt31.tpb512.mb2.pad0:32)

# radix.msd_local_lsd.rb8.ipt9.tpb256[.unrolled_passes][.top_ipt4.top_tpb512]
#   -> 8, 9, 256[, true|false[, 4, 512]] (MsdLocalPolicy)
function(sortbench_lean_msd_local label out)
  string(REGEX MATCH "^radix\\.msd_local_lsd\\.rb([0-9]+)\\.ipt([0-9]+)\\.tpb([0-9]+)(\\.unrolled_passes)?(\\.top_ipt([0-9]+)\\.top_tpb([0-9]+))?$"
         _ "${label}")
  set(args "${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}, ${CMAKE_MATCH_3}")
  if(CMAKE_MATCH_4 OR CMAKE_MATCH_5)
    if(CMAKE_MATCH_4)
      string(APPEND args ", true")
    else()
      string(APPEND args ", false")
    endif()
  endif()
  if(CMAKE_MATCH_5)
    string(APPEND args ", ${CMAKE_MATCH_6}, ${CMAKE_MATCH_7}")
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()
sortbench_lean_family(SORTBENCH_LEAN_MSD_LOCAL "^radix\\.msd_local_lsd\\." sortbench_lean_msd_local)

# radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128 -> 8, 10, 128 (TwoDigitMsdPolicy)
function(sortbench_lean_two_digit label out)
  string(REGEX REPLACE "^radix\\.two_digit_msd_local_lsd\\.rb([0-9]+)\\.ipt([0-9]+)\\.tpb([0-9]+)$" "\\1, \\2, \\3"
                       args "${label}")
  set(${out} "${args}" PARENT_SCOPE)
endfunction()
# 384-key slabs for 2^24 (2^16 buckets of 256 keys) as a tune candidate:
# 64 x 6, which was faster than 128 x 3 at every 2^24 workload of the
# realistic tunes (variants/radix/PERFORMANCE.md, "2^24: 384-key slabs").
sortbench_lean_family(SORTBENCH_LEAN_TWO_DIGIT "^radix\\.two_digit_msd_local_lsd\\." sortbench_lean_two_digit
  ALWAYS radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64:32 radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64:64)

# radix.cluster.rb8.ipt2.tpb512[.thread_counters] -> 8, 2, 512[, ClusterRanking::thread_counters]
function(sortbench_lean_cluster label out)
  string(REGEX MATCH "^radix\\.cluster\\.rb([0-9]+)\\.ipt([0-9]+)\\.tpb([0-9]+)(\\.thread_counters)?$" _ "${label}")
  set(args "${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}, ${CMAKE_MATCH_3}")
  if(CMAKE_MATCH_4)
    string(APPEND args ", ClusterRanking::thread_counters")
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()
sortbench_lean_family(SORTBENCH_LEAN_CLUSTER "^radix\\.cluster\\." sortbench_lean_cluster)
