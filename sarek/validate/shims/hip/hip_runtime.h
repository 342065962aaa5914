/* sarek's hip_runtime-over-CUDA shim: enough of HIP for nvcc to check sarek's HIP output (not a HIP port). */
#pragma once
#include <cuda_runtime.h>
#define __HIP_PLATFORM_NVIDIA__ 1
__device__ __forceinline__ unsigned int __lane_id(void) {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
template <typename T> __device__ __forceinline__ T __shfl(T v, int src, int width = warpSize) {
  return __shfl_sync(0xffffffffu, v, src, width);
}
#define __builtin_amdgcn_wave_barrier() __syncwarp()
