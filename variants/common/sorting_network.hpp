// Sorting networks as compile-time comparator lists, for sorts of a few
// items in registers (BlockSortTile::thread_sort). Host and device alike:
// the CPU tests check them by the 0-1 principle.
#pragma once

namespace sortbench::common {

// Batcher's odd-even merge sort as a sorting network on N items (Knuth
// 5.3.4, exercise 32's form for any N): comparator c orders items a[c] < b[c].
template <int N>
struct OddEvenMergeNetwork {
  struct List {
    int a[N * N / 2 + 1] = {}, b[N * N / 2 + 1] = {};
    int size = 0;
  };
  static constexpr List make() {
    List l;
    for (int p = 1; p < N; p *= 2) {
      for (int k = p; k >= 1; k /= 2) {
        for (int j = k % p; j + k < N; j += 2 * k) {
          for (int i = 0; i < k && i < N - j - k; ++i) {
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
              l.a[l.size] = i + j;
              l.b[l.size] = i + j + k;
              ++l.size;
            }
          }
        }
      }
    }
    return l;
  }
  static constexpr List kList = make();
  static constexpr int kSize = kList.size;
};

}  // namespace sortbench::common
