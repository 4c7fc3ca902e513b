# The library calls of the lean build (cmake/lean_points.cmake): CUB's radix
# sort with 32-bit num_items (the pointer and DoubleBuffer overloads share its
# kernels) for the key types a committed best.json picks it for. The 64-bit
# form, the reference, is compiled in at every width; the rest is built on
# demand per key type (sortbench/library_calls.hpp).
function(sortbench_lean_cub_radix_off32 label out)
  set(${out} "off32" PARENT_SCOPE)
endfunction()
sortbench_lean_family(SORTBENCH_LEAN_CUB_RADIX_OFF32 "^cub\\.radix_sort\\.(double_buffer\\.)?off32$"
  sortbench_lean_cub_radix_off32 PER_KEY)
