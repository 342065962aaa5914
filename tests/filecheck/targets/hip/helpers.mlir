// RUN: sarek-opt %S/../Inputs/helpers_chain.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of helpers_chain.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } vec2;
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __forceinline__ vec2 sarek_ld64_vec2(vec2* p) { union { uint2 v; vec2 t; } u; u.v = *(uint2*)p; return u.t; }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ float sq(float v) {
// CHECK-NEXT:   return (v * v);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ float norm(vec2 p) {
// CHECK-NEXT:   return sqrtf((sq(p.x) + sq(p.y)));
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ vec2 scale(vec2 p, float k) {
// CHECK-NEXT:   return vec2{(p.x * k), (p.y * k)};
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ float clamp_len(vec2 p, float k, float cap) {
// CHECK-NEXT:   float sarek_n = norm(scale(p, k));
// CHECK-NEXT:   if (sarek_n > cap) {
// CHECK-NEXT:     return cap;
// CHECK-NEXT:   }
// CHECK-NEXT:   return sarek_n;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ void put(float* dst, int sarek_dst_length, int i, float v) {
// CHECK-NEXT:   if (i < sarek_dst_length) {
// CHECK-NEXT:     dst[i] = v;
// CHECK-NEXT:   }
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void lengths(vec2* __restrict__ pts, int sarek_pts_length, float* __restrict__ out, int sarek_out_length, float k) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (i < sarek_pts_length) {
// CHECK-NEXT:     put(out, sarek_out_length, i, clamp_len(sarek_ld64_vec2(&pts[i]), k, 10.0f));
// CHECK-NEXT:   }
// CHECK-NEXT: }
