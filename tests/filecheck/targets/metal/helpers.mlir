// RUN: sarek-opt %S/../Inputs/helpers_chain.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of helpers_chain.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } vec2;
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
// CHECK-NEXT: void put(device float* dst, int sarek_dst_length, int i, float v) {
// CHECK-NEXT:   if (i < sarek_dst_length) {
// CHECK-NEXT:     dst[i] = v;
// CHECK-NEXT:   }
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void lengths(device vec2* pts {{\[\[}}buffer(0)]], constant int &sarek_pts_length {{\[\[}}buffer(1)]], device float* out {{\[\[}}buffer(2)]], constant int &sarek_out_length {{\[\[}}buffer(3)]], constant float &k {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   if (i < sarek_pts_length) {
// CHECK-NEXT:     put(out, sarek_out_length, i, clamp_len(pts[i], k, 10.0f));
// CHECK-NEXT:   }
// CHECK-NEXT: }
