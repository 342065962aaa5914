// RUN: sarek-opt %S/../Inputs/histogram.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of histogram.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void histogram(device int* data {{\[\[}}buffer(0)]], constant int &sarek_data_length {{\[\[}}buffer(1)]], device int* hist {{\[\[}}buffer(2)]], constant int &sarek_hist_length {{\[\[}}buffer(3)]], constant int &n {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   threadgroup int counts[16];
// CHECK-NEXT:   int zi = ((int)__metal_tid.x + ((int)__metal_tpg.x * ((int)__metal_tid.y + ((int)__metal_tpg.y * (int)__metal_tid.z))));
// CHECK-NEXT:   while (zi < 16) {
// CHECK-NEXT:     counts[zi] = 0;
// CHECK-NEXT:     zi = (zi + ((int)__metal_tpg.x * ((int)__metal_tpg.y * (int)__metal_tpg.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   int tid = (int)__metal_tid.x;
// CHECK-NEXT:   bool sarek_small = (tid < 16);
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     counts[tid] = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   while (i < n) {
// CHECK-NEXT:     atomic_fetch_add_explicit((volatile threadgroup atomic_int*)&counts[(data[i] % 16)], 1, memory_order_relaxed);
// CHECK-NEXT:     i = (i + (int)(__metal_tpg.x * __metal_num_groups.x));
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     atomic_fetch_add_explicit((volatile device atomic_int*)&hist[tid], counts[tid], memory_order_relaxed);
// CHECK-NEXT:   }
// CHECK-NEXT: }
