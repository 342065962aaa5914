// RUN: sarek-opt %S/../Inputs/helpers_chain.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of helpers_chain.mlir (the whole output, line by line)

// CHECK: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } vec2;
// CHECK-EMPTY:
// CHECK-NEXT: static inline vec2 sarek_ld64_vec2(__global vec2* p) { union { uint2 v; vec2 t; } u; u.v = *(__global uint2*)p; return u.t; }
// CHECK-EMPTY:
// CHECK-NEXT: float sq(float v) {
// CHECK-NEXT:   return (v * v);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: float norm(vec2 p) {
// CHECK-NEXT:   return sqrt((sq(p.x) + sq(p.y)));
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: vec2 scale(vec2 p, float k) {
// CHECK-NEXT:   return (vec2){.x = (p.x * k), .y = (p.y * k)};
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: float clamp_len(vec2 p, float k, float cap) {
// CHECK-NEXT:   float sarek_n = norm(scale(p, k));
// CHECK-NEXT:   if (sarek_n > cap) {
// CHECK-NEXT:     return cap;
// CHECK-NEXT:   }
// CHECK-NEXT:   return sarek_n;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: void put(__global float* dst, int sarek_dst_length, int i, float v) {
// CHECK-NEXT:   if (i < sarek_dst_length) {
// CHECK-NEXT:     dst[i] = v;
// CHECK-NEXT:   }
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void lengths(__global vec2* restrict pts, int sarek_pts_length, __global float* restrict out, int sarek_out_length, float k) {
// CHECK-NEXT:   int i = (int)get_global_id(0);
// CHECK-NEXT:   if (i < sarek_pts_length) {
// CHECK-NEXT:     put(out, sarek_out_length, i, clamp_len(sarek_ld64_vec2(&pts[i]), k, 10.0f));
// CHECK-NEXT:   }
// CHECK-NEXT: }
