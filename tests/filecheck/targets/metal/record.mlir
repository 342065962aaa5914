// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of record.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT: } point;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void shift_points(device point* src {{\[\[}}buffer(0)]], constant int &sarek_src_length {{\[\[}}buffer(1)]], device point* dst {{\[\[}}buffer(2)]], constant int &sarek_dst_length {{\[\[}}buffer(3)]], constant int &n {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int tid = (int)__metal_gid.x;
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     point p = src[tid];
// CHECK-NEXT:     point next = (point){.x = (p.x + 1.0f), .y = p.y};
// CHECK-NEXT:     dst[tid] = next;
// CHECK-NEXT:     dst[tid].y = (p.y * 2.0f);
// CHECK-NEXT:   }
// CHECK-NEXT: }
