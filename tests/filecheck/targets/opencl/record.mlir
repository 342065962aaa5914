// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of record.mlir (the whole output, line by line)

// CHECK: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } point;
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void shift_points(__global point* restrict src, int sarek_src_length, __global point* restrict dst, int sarek_dst_length, int n) {
// CHECK-NEXT:   int tid = (int)get_global_id(0);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     point p = src[tid];
// CHECK-NEXT:     point next = (point){.x = (p.x + 1.0f), .y = p.y};
// CHECK-NEXT:     dst[tid] = next;
// CHECK-NEXT:     dst[tid].y = (p.y * 2.0f);
// CHECK-NEXT:   }
// CHECK-NEXT: }
