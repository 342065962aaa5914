// RUN: sarek-opt %S/../Inputs/cf_types.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of cf_types.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT:   int live;
// CHECK-NEXT: } pos;
// CHECK-EMPTY:
// CHECK-NEXT: enum { Point = 0, Pair = 1, Nothing = 2 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     pos Point_v;
// CHECK-NEXT:     struct {
// CHECK-NEXT:       int _0;
// CHECK-NEXT:       float _1;
// CHECK-NEXT:     } Pair_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } item;
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __host__ inline item make_item_Point(pos v) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Point;
// CHECK-NEXT:   r.data.Point_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __host__ inline item make_item_Pair(int v0, float v1) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Pair;
// CHECK-NEXT:   r.data.Pair_v._0 = v0;
// CHECK-NEXT:   r.data.Pair_v._1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __device__ __host__ inline item make_item_Nothing() {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Nothing;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   pos a;
// CHECK-NEXT:   pos b;
// CHECK-NEXT: } seg;
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void types(seg* __restrict__ segs, int sarek_segs_length, item* __restrict__ items, int sarek_items_length, pos origin, item dflt) {
// CHECK-NEXT:   int sarek_i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   pos sarek_a = segs[sarek_i].a;
// CHECK-NEXT:   items[sarek_i] = (sarek_a.live ? make_item_Point(sarek_a) : dflt);
// CHECK-NEXT:   __builtin_amdgcn_wave_barrier();
// CHECK-NEXT:   segs[sarek_i].b = origin;
// CHECK-NEXT:   segs[sarek_i].b.x = (origin.x + 1.0f);
// CHECK-NEXT: }
