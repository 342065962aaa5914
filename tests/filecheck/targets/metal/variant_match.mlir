// RUN: sarek-opt %S/../../../../examples/variant_match.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of variant_match.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: enum { Circle = 0, Rect = 1, Empty = 2 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     float Circle_v;
// CHECK-NEXT:     struct {
// CHECK-NEXT:       float _0;
// CHECK-NEXT:       float _1;
// CHECK-NEXT:     } Rect_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } shape;
// CHECK-EMPTY:
// CHECK-NEXT: static inline shape make_shape_Circle(float v) {
// CHECK-NEXT:   shape r;
// CHECK-NEXT:   r.tag = Circle;
// CHECK-NEXT:   r.data.Circle_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline shape make_shape_Rect(float v0, float v1) {
// CHECK-NEXT:   shape r;
// CHECK-NEXT:   r.tag = Rect;
// CHECK-NEXT:   r.data.Rect_v._0 = v0;
// CHECK-NEXT:   r.data.Rect_v._1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline shape make_shape_Empty() {
// CHECK-NEXT:   shape r;
// CHECK-NEXT:   r.tag = Empty;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void areas(device shape* shapes {{\[\[}}buffer(0)]], constant int &sarek_shapes_length {{\[\[}}buffer(1)]], device float* area {{\[\[}}buffer(2)]], constant int &sarek_area_length {{\[\[}}buffer(3)]], device float* perim {{\[\[}}buffer(4)]], constant int &sarek_perim_length {{\[\[}}buffer(5)]], constant int &n {{\[\[}}buffer(6)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     shape sarek_s = shapes[i];
// CHECK-NEXT:     switch (sarek_s.tag) {
// CHECK-NEXT:       case Circle: {
// CHECK-NEXT:         area[i] = (3.1415927f * (sarek_s.data.Circle_v * sarek_s.data.Circle_v));
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:       case Rect: {
// CHECK-NEXT:         area[i] = (sarek_s.data.Rect_v._0 * sarek_s.data.Rect_v._1);
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:       default: {
// CHECK-NEXT:         area[i] = 0.0f;
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     perim[i] = ((sarek_s.tag == Circle) ? (6.2831855f * sarek_s.data.Circle_v) : ((sarek_s.tag == Rect) ? (2.0f * (sarek_s.data.Rect_v._0 + sarek_s.data.Rect_v._1)) : 0.0f));
// CHECK-NEXT:   }
// CHECK-NEXT: }
