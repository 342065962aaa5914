// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of record.mlir (the whole output, line by line)

// CHECK: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } point;
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void shift_points(point* __restrict__ src, int sarek_src_length, point* __restrict__ dst, int sarek_dst_length, int n) {
// CHECK-NEXT:   int tid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     point p = src[tid];
// CHECK-NEXT:     point next = point{(p.x + 1.0f), p.y};
// CHECK-NEXT:     dst[tid] = next;
// CHECK-NEXT:     dst[tid].y = (p.y * 2.0f);
// CHECK-NEXT:   }
// CHECK-NEXT: }
