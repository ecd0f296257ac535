/* cucc: cooperative groups (namespace `cooperative_groups`).
 *
 * Groups are written in plain device code over the intrinsics of
 * device_functions.h: a thread block syncs with __syncthreads, a tile of N
 * threads (N a power of two, at most 32) uses the warp intrinsics with the
 * tile's lane mask and width N.  After inlining, the frontend sees only the
 * intrinsics. */
#ifndef __CUCC_COOPERATIVE_GROUPS_H__
#define __CUCC_COOPERATIVE_GROUPS_H__
#include "cuda_runtime.h"

namespace cooperative_groups {

namespace __cucc {
__device__ inline unsigned int linear_tid() {
    return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
__device__ inline unsigned int block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
} // namespace __cucc

/* A group of threads of run-time size (what a dynamic tiled_partition gives). */
class thread_group {
  protected:
    unsigned int __size;

  public:
    __device__ explicit thread_group(unsigned int size) : __size(size) {}
    __device__ void sync() const {
        if (__size < 32 && __size <= __cucc::block_threads())
            __syncwarp(0xffffffffu);
        else
            __syncthreads();
    }
    __device__ unsigned int size() const { return __size; }
    __device__ unsigned int num_threads() const { return __size; }
    __device__ unsigned int thread_rank() const { return __cucc::linear_tid() % __size; }
};

/* The thread block of the calling thread. */
class thread_block {
  public:
    __device__ thread_block() {}
    __device__ void sync() const { __syncthreads(); }
    __device__ unsigned int thread_rank() const { return __cucc::linear_tid(); }
    __device__ unsigned int size() const { return __cucc::block_threads(); }
    __device__ unsigned int num_threads() const { return __cucc::block_threads(); }
    __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __device__ dim3 group_dim() const { return blockDim; }
    __device__ dim3 dim_threads() const { return blockDim; }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }

/* The whole grid; sync() needs a cooperative launch. */
__CUCC_DEV void __cucc_grid_sync(void);
class grid_group {
  public:
    __device__ void sync() const { __cucc_grid_sync(); }
    __device__ unsigned long long thread_rank() const {
        unsigned long long block = blockIdx.x + (unsigned long long)blockIdx.y * gridDim.x +
                                   (unsigned long long)blockIdx.z * gridDim.x * gridDim.y;
        return block * __cucc::block_threads() + __cucc::linear_tid();
    }
    __device__ unsigned long long size() const {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __cucc::block_threads();
    }
    __device__ unsigned long long num_threads() const { return size(); }
    __device__ bool is_valid() const { return true; }
};
__device__ inline grid_group this_grid() { return grid_group(); }

/* A statically sized tile of N consecutive threads of a block; N is a power
 * of two no larger than 32, so a tile never spans two warps. */
template <unsigned int N> class thread_block_tile {
    static_assert(N > 0 && N <= 32 && (N & (N - 1)) == 0, "tile size must be a power of two <= 32");

    __device__ static unsigned int lane() { return __cucc::linear_tid() & 31u; }
    __device__ static unsigned int base() { return lane() & ~(N - 1); }
    __device__ static unsigned int mask() { return N == 32 ? 0xffffffffu : (((1u << N) - 1u) << base()); }

  public:
    __device__ thread_block_tile() {}
    __device__ void sync() const { __syncwarp(mask()); }
    __device__ unsigned int thread_rank() const { return lane() & (N - 1); }
    __device__ unsigned int size() const { return N; }
    __device__ unsigned int num_threads() const { return N; }
    __device__ unsigned int meta_group_rank() const { return __cucc::linear_tid() / N; }
    __device__ unsigned int meta_group_size() const { return (__cucc::block_threads() + N - 1) / N; }
    template <class T> __device__ T shfl(T var, int srcRank) const { return __shfl_sync(mask(), var, srcRank, N); }
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const { return __shfl_down_sync(mask(), var, delta, N); }
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const { return __shfl_up_sync(mask(), var, delta, N); }
    template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const { return __shfl_xor_sync(mask(), var, (int)laneMask, N); }
    __device__ int any(int predicate) const { return __any_sync(mask(), predicate); }
    __device__ int all(int predicate) const { return __all_sync(mask(), predicate); }
    __device__ unsigned int ballot(int predicate) const {
        unsigned int bits = __ballot_sync(mask(), predicate) >> base();
        return N == 32 ? bits : bits & ((1u << N) - 1u);
    }
    __device__ operator thread_group() const { return thread_group(N); }
};

template <unsigned int N, class ParentT> __device__ inline thread_block_tile<N> tiled_partition(const ParentT &) {
    return thread_block_tile<N>();
}
__device__ inline thread_group tiled_partition(const thread_block &, unsigned int tileSize) { return thread_group(tileSize); }
__device__ inline thread_group tiled_partition(const thread_group &, unsigned int tileSize) { return thread_group(tileSize); }

template <class Group> __device__ inline void sync(const Group &g) { g.sync(); }
template <class Group> __device__ inline unsigned long long thread_rank(const Group &g) { return g.thread_rank(); }
template <class Group> __device__ inline unsigned long long group_size(const Group &g) { return g.size(); }

/* Reductions over a tile (cooperative_groups/reduce.h). */
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

template <unsigned int N, class T, class Op> __device__ inline T reduce(const thread_block_tile<N> &g, T value, Op op) {
    for (unsigned int offset = 1; offset < N; offset *= 2)
        value = op(value, g.shfl_xor(value, offset));
    return value;
}

} // namespace cooperative_groups

#endif
