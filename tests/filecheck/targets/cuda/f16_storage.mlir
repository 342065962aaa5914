// RUN: sarek-opt %S/../Inputs/f16_storage.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of f16_storage.mlir (the whole output, line by line)

// CHECK: #if !defined(__HIP__) && !defined(__HIP_PLATFORM_AMD__)
// CHECK-NEXT: #include <cuda_fp16.h>
// CHECK-NEXT: #endif
// CHECK-NEXT: /* f16 is a storage type: arithmetic runs in f32 and is rounded back to nearest even; the barrier keeps
// CHECK-NEXT:    the compiler from fusing an operation with its narrowing */
// CHECK-NEXT: #if defined(__HIP_PLATFORM_AMD__)
// CHECK-NEXT: __device__ __forceinline__ float sarek_f32_barrier(float x) { asm volatile("" : "+v"(x)); return x; }
// CHECK-NEXT: #else
// CHECK-NEXT: __device__ __forceinline__ float sarek_f32_barrier(float x) { return x; }
// CHECK-NEXT: #endif
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void f16_scale(__half* __restrict__ x, int sarek_x_length, __half* __restrict__ y, int sarek_y_length, float s, int n) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     __half sarek_h = x[i];
// CHECK-NEXT:     y[i] = __float2half(sarek_f32_barrier((__half2float(__float2half(sarek_f32_barrier((__half2float(sarek_h) * s)))) + __half2float(sarek_h))));
// CHECK-NEXT:   }
// CHECK-NEXT: }
