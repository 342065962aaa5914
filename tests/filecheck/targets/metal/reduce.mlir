// RUN: sarek-opt %S/../../../../examples/reduce.mlir -p 'sarek-pipeline{target=metal opt=off}' -t metal | filecheck %s --match-full-lines
// metal source of reduce.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void reduce_sum(device float* a {{\[\[}}buffer(0)]], constant int &sarek_a_length {{\[\[}}buffer(1)]], device float* out {{\[\[}}buffer(2)]], constant int &sarek_out_length {{\[\[}}buffer(3)]], constant int &n {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   threadgroup float sdata[256];
// CHECK-NEXT:   int zi = ((int)__metal_tid.x + ((int)__metal_tpg.x * ((int)__metal_tid.y + ((int)__metal_tpg.y * (int)__metal_tid.z))));
// CHECK-NEXT:   while (zi < 256) {
// CHECK-NEXT:     sdata[zi] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)__metal_tpg.x * ((int)__metal_tpg.y * (int)__metal_tpg.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   int tid = (int)__metal_tid.x;
// CHECK-NEXT:   int gid = (int)__metal_gid.x;
// CHECK-NEXT:   sdata[tid] = ((gid < n) ? a[gid] : 0.0f);
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   int s = 128;
// CHECK-NEXT:   while (s > 0) {
// CHECK-NEXT:     if (tid < s) {
// CHECK-NEXT:       sdata[tid] = (sdata[tid] + sdata[(tid + s)]);
// CHECK-NEXT:     }
// CHECK-NEXT:     threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:     s = (s >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (tid == 0) {
// CHECK-NEXT:     out[(int)__metal_bid.x] = sdata[0];
// CHECK-NEXT:   }
// CHECK-NEXT: }
