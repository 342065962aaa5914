// RUN: sarek-opt %S/../Inputs/warp_reduce.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of warp_reduce.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: __device__ int sarek_warp_shuffle_down_i32(int v, int x) {
// CHECK-NEXT:   int lane = (int)__lane_id();
// CHECK-NEXT:   int width = warpSize;
// CHECK-NEXT:   int src = (((x >= 0) && (x < (width - lane))) ? (lane + x) : lane);
// CHECK-NEXT:   return __shfl(v, src);
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
// CHECK-NEXT:   if ((int)__lane_id() == 0) {
// CHECK-NEXT:     atomicAdd(&total[0], v);
// CHECK-NEXT:   }
// CHECK-NEXT: }
