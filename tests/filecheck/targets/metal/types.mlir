// RUN: sarek-opt %S/../Inputs/cf_types.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of cf_types.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
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
// CHECK-NEXT: static inline item make_item_Point(pos v) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Point;
// CHECK-NEXT:   r.data.Point_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline item make_item_Pair(int v0, float v1) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Pair;
// CHECK-NEXT:   r.data.Pair_v._0 = v0;
// CHECK-NEXT:   r.data.Pair_v._1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline item make_item_Nothing() {
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
// CHECK-NEXT: kernel void types(device seg* segs {{\[\[}}buffer(0)]], constant int &sarek_segs_length {{\[\[}}buffer(1)]], device item* items {{\[\[}}buffer(2)]], constant int &sarek_items_length {{\[\[}}buffer(3)]], constant pos &origin {{\[\[}}buffer(4)]], constant item &dflt {{\[\[}}buffer(5)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   pos sarek_a = segs[(int)__metal_gid.x].a;
// CHECK-NEXT:   items[(int)__metal_gid.x] = (sarek_a.live ? make_item_Point(sarek_a) : dflt);
// CHECK-NEXT:   simdgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   segs[(int)__metal_gid.x].b = origin;
// CHECK-NEXT:   segs[(int)__metal_gid.x].b.x = (origin.x + 1.0f);
// CHECK-NEXT: }
