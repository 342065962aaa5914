// RUN: sarek-opt %S/../Inputs/warp_reduce.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of warp_reduce.mlir (the whole output, line by line)

// CHECK: __device__ __forceinline__ int sarek_lane_id(void) {
// CHECK-NEXT:   unsigned int lane;
// CHECK-NEXT:   asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
// CHECK-NEXT:   return (int)lane;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ int sarek_warp_shuffle_down_i32(int v, int x) {
// CHECK-NEXT:   int lane = sarek_lane_id();
// CHECK-NEXT:   int width = warpSize;
// CHECK-NEXT:   int src = (((x >= 0) && (x < (width - lane))) ? (lane + x) : lane);
// CHECK-NEXT:   return __shfl_sync(0xffffffffu, v, src);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void warp_sum(int* __restrict__ x, int sarek_x_length, int* __restrict__ total, int sarek_total_length, int n) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   int v = ((i < n) ? x[i] : 0);
// CHECK-NEXT:   int offset = (warpSize >> 1);
// CHECK-NEXT:   while (offset > 0) {
// CHECK-NEXT:     v = (v + sarek_warp_shuffle_down_i32(v, offset));
// CHECK-NEXT:     offset = (offset >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (sarek_lane_id() == 0) {
// CHECK-NEXT:     atomicAdd(&total[0], v);
// CHECK-NEXT:   }
// CHECK-NEXT: }
