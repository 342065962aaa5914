// RUN: sarek-opt %S/../Inputs/matmul_tiled.mlir -p 'sarek-pipeline{target=metal opt=off}' -t metal | filecheck %s --match-full-lines
// metal source of matmul_tiled.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: kernel void matmul(device float* a {{\[\[}}buffer(0)]], constant int &sarek_a_length {{\[\[}}buffer(1)]], device float* b {{\[\[}}buffer(2)]], constant int &sarek_b_length {{\[\[}}buffer(3)]], device float* c {{\[\[}}buffer(4)]], constant int &sarek_c_length {{\[\[}}buffer(5)]], constant int &n {{\[\[}}buffer(6)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   threadgroup float tile_a[256];
// CHECK-NEXT:   threadgroup float tile_b[256];
// CHECK-NEXT:   int sarek_t = ((int)__metal_tid.x + ((int)__metal_tpg.x * ((int)__metal_tid.y + ((int)__metal_tpg.y * (int)__metal_tid.z))));
// CHECK-NEXT:   int sarek_t_1 = ((int)__metal_tpg.x * ((int)__metal_tpg.y * (int)__metal_tpg.z));
// CHECK-NEXT:   int zi = sarek_t;
// CHECK-NEXT:   while (zi < 256) {
// CHECK-NEXT:     tile_a[zi] = 0.0f;
// CHECK-NEXT:     zi = (zi + sarek_t_1);
// CHECK-NEXT:   }
// CHECK-NEXT:   int zi_1 = sarek_t;
// CHECK-NEXT:   while (zi_1 < 256) {
// CHECK-NEXT:     tile_b[zi_1] = 0.0f;
// CHECK-NEXT:     zi_1 = (zi_1 + sarek_t_1);
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   int tx = (int)__metal_tid.x;
// CHECK-NEXT:   int ty = (int)__metal_tid.y;
// CHECK-NEXT:   int col = (((int)__metal_bid.x * 16) + tx);
// CHECK-NEXT:   int row = (((int)__metal_bid.y * 16) + ty);
// CHECK-NEXT:   float acc = 0.0f;
// CHECK-NEXT:   int slot = ((ty * 16) + tx);
// CHECK-NEXT:   for (int t = 0; t < (n / 16); t++) {
// CHECK-NEXT:     int sarek_t16 = (t * 16);
// CHECK-NEXT:     tile_a[slot] = a[((row * n) + (sarek_t16 + tx))];
// CHECK-NEXT:     tile_b[slot] = b[(((sarek_t16 + ty) * n) + col)];
// CHECK-NEXT:     threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:     for (int k = 0; k < 16; k++) {
// CHECK-NEXT:       acc = (acc + (tile_a[((ty * 16) + k)] * tile_b[((k * 16) + tx)]));
// CHECK-NEXT:     }
// CHECK-NEXT:     threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   }
// CHECK-NEXT:   c[((row * n) + col)] = acc;
// CHECK-NEXT: }
