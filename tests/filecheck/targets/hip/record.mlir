// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of record.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } point;
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __forceinline__ point sarek_ld64_point(point* p) { union { uint2 v; point t; } u; u.v = *(uint2*)p; return u.t; }
// CHECK-NEXT: __device__ __forceinline__ void sarek_st64_point(point* p, point t) { union { uint2 v; point t; } u; u.t = t; *(uint2*)p = u.v; }
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void shift_points(point* __restrict__ src, int sarek_src_length, point* __restrict__ dst, int sarek_dst_length, int n) {
// CHECK-NEXT:   int tid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     point p = sarek_ld64_point(&src[tid]);
// CHECK-NEXT:     point next = point{(p.x + 1.0f), p.y};
// CHECK-NEXT:     sarek_st64_point(&dst[tid], next);
// CHECK-NEXT:     dst[tid].y = (p.y * 2.0f);
// CHECK-NEXT:   }
// CHECK-NEXT: }
