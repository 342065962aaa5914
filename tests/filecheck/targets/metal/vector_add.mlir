// RUN: sarek-opt %S/../../../../examples/vector_add.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of vector_add.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void vector_add(device float* a {{\[\[}}buffer(0)]], constant int &sarek_a_length {{\[\[}}buffer(1)]], device float* b {{\[\[}}buffer(2)]], constant int &sarek_b_length {{\[\[}}buffer(3)]], device float* c {{\[\[}}buffer(4)]], constant int &sarek_c_length {{\[\[}}buffer(5)]], constant int &n {{\[\[}}buffer(6)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int tid = (int)__metal_gid.x;
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     c[tid] = (a[tid] + b[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
