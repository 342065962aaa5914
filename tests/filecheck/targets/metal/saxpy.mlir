// RUN: sarek-opt %S/../Inputs/saxpy.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of saxpy.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void saxpy(constant float &alpha {{\[\[}}buffer(0)]], device float* x {{\[\[}}buffer(1)]], constant int &sarek_x_length {{\[\[}}buffer(2)]], device float* y {{\[\[}}buffer(3)]], constant int &sarek_y_length {{\[\[}}buffer(4)]], constant int &n {{\[\[}}buffer(5)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     y[i] = ((alpha * x[i]) + y[i]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
