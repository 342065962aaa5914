// RUN: sarek-opt %S/../Inputs/warp_reduce.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of warp_reduce.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: int sarek_warp_shuffle_down_i32(int v, int x, uint3 __metal_gid, uint3 __metal_tid, uint3 __metal_bid, uint3 __metal_tpg, uint3 __metal_num_groups, uint __metal_lane, uint __metal_width) {
// CHECK-NEXT:   int lane = (int)__metal_lane;
// CHECK-NEXT:   int width = (int)__metal_width;
// CHECK-NEXT:   int src = (((x >= 0) && (x < (width - lane))) ? (lane + x) : lane);
// CHECK-NEXT:   return simd_shuffle(v, (ushort)src);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void warp_sum(device int* x {{\[\[}}buffer(0)]], constant int &sarek_x_length {{\[\[}}buffer(1)]], device int* total {{\[\[}}buffer(2)]], constant int &sarek_total_length {{\[\[}}buffer(3)]], constant int &n {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int i = (int)__metal_gid.x;
// CHECK-NEXT:   int v = ((i < n) ? x[i] : 0);
// CHECK-NEXT:   int offset = ((int)__metal_width >> 1);
// CHECK-NEXT:   while (offset > 0) {
// CHECK-NEXT:     v = (v + sarek_warp_shuffle_down_i32(v, offset, __metal_gid, __metal_tid, __metal_bid, __metal_tpg, __metal_num_groups, __metal_lane, __metal_width));
// CHECK-NEXT:     offset = (offset >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if ((int)__metal_lane == 0) {
// CHECK-NEXT:     atomic_fetch_add_explicit((volatile device atomic_int*)&total[0], v, memory_order_relaxed);
// CHECK-NEXT:   }
// CHECK-NEXT: }
