// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of record.mlir (the whole output, line by line)

// CHECK: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } point;
// CHECK-EMPTY:
// CHECK-NEXT: static inline point sarek_ld64_point(__global point* p) { union { uint2 v; point t; } u; u.v = *(__global uint2*)p; return u.t; }
// CHECK-NEXT: static inline void sarek_st64_point(__global point* p, point t) { union { uint2 v; point t; } u; u.t = t; *(__global uint2*)p = u.v; }
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void shift_points(__global point* restrict src, int sarek_src_length, __global point* restrict dst, int sarek_dst_length, int n) {
// CHECK-NEXT:   int tid = (int)get_global_id(0);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     point p = sarek_ld64_point(&src[tid]);
// CHECK-NEXT:     point next = (point){.x = (p.x + 1.0f), .y = p.y};
// CHECK-NEXT:     sarek_st64_point(&dst[tid], next);
// CHECK-NEXT:     dst[tid].y = (p.y * 2.0f);
// CHECK-NEXT:   }
// CHECK-NEXT: }
