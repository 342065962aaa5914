// RUN: sarek-opt %S/../Inputs/while_mutables.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of while_mutables.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void collatz(device int* x {{\[\[}}buffer(0)]], constant int &sarek_x_length {{\[\[}}buffer(1)]], device int* steps {{\[\[}}buffer(2)]], constant int &sarek_steps_length {{\[\[}}buffer(3)]], constant int &n {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     int v = x[i];
// CHECK-NEXT:     int count = 0;
// CHECK-NEXT:     while (v > 1) {
// CHECK-NEXT:       v = (((v & 1) == 0) ? (v >> 1) : ((v * 3) + 1));
// CHECK-NEXT:       count = (count + 1);
// CHECK-NEXT:     }
// CHECK-NEXT:     steps[i] = count;
// CHECK-NEXT:   }
// CHECK-NEXT: }
