// RUN: sarek-opt %S/../Inputs/matmul_tiled.mlir -p 'sarek-pipeline{target=opencl opt=off}' -t opencl | filecheck %s --match-full-lines
// opencl source of matmul_tiled.mlir (the whole output, line by line)

// CHECK: __kernel void matmul(__global float* restrict a, int sarek_a_length, __global float* restrict b, int sarek_b_length, __global float* restrict c, int sarek_c_length, int n) {
// CHECK-NEXT:   __local float tile_a[256];
// CHECK-NEXT:   __local float tile_b[256];
// CHECK-NEXT:   int sarek_t = ((int)get_local_id(0) + ((int)get_local_size(0) * ((int)get_local_id(1) + ((int)get_local_size(1) * (int)get_local_id(2)))));
// CHECK-NEXT:   int sarek_t_1 = ((int)get_local_size(0) * ((int)get_local_size(1) * (int)get_local_size(2)));
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
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int tx = (int)get_local_id(0);
// CHECK-NEXT:   int ty = (int)get_local_id(1);
// CHECK-NEXT:   int col = (((int)get_group_id(0) * 16) + tx);
// CHECK-NEXT:   int row = (((int)get_group_id(1) * 16) + ty);
// CHECK-NEXT:   float acc = 0.0f;
// CHECK-NEXT:   int slot = ((ty * 16) + tx);
// CHECK-NEXT:   for (int t = 0; t < (n / 16); t++) {
// CHECK-NEXT:     int sarek_t16 = (t * 16);
// CHECK-NEXT:     tile_a[slot] = a[((row * n) + (sarek_t16 + tx))];
// CHECK-NEXT:     tile_b[slot] = b[(((sarek_t16 + ty) * n) + col)];
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:     for (int k = 0; k < 16; k++) {
// CHECK-NEXT:       acc = (acc + (tile_a[((ty * 16) + k)] * tile_b[((k * 16) + tx)]));
// CHECK-NEXT:     }
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   }
// CHECK-NEXT:   c[((row * n) + col)] = acc;
// CHECK-NEXT: }
