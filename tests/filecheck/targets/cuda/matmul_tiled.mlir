// RUN: sarek-opt %S/../Inputs/matmul_tiled.mlir -p 'sarek-pipeline{target=cuda opt=off}' -t cuda | filecheck %s --match-full-lines
// cuda source of matmul_tiled.mlir (the whole output, line by line)

// CHECK: extern "C" __global__ void matmul(float* __restrict__ a, int sarek_a_length, float* __restrict__ b, int sarek_b_length, float* __restrict__ c, int sarek_c_length, int n) {
// CHECK-NEXT:   __shared__ float tile_a[256];
// CHECK-NEXT:   __shared__ float tile_b[256];
// CHECK-NEXT:   int sarek_t = ((int)threadIdx.x + ((int)blockDim.x * ((int)threadIdx.y + ((int)blockDim.y * (int)threadIdx.z))));
// CHECK-NEXT:   int sarek_t_1 = ((int)blockDim.x * ((int)blockDim.y * (int)blockDim.z));
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
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int tx = (int)threadIdx.x;
// CHECK-NEXT:   int ty = (int)threadIdx.y;
// CHECK-NEXT:   int col = (((int)blockIdx.x * 16) + tx);
// CHECK-NEXT:   int row = (((int)blockIdx.y * 16) + ty);
// CHECK-NEXT:   float acc = 0.0f;
// CHECK-NEXT:   int slot = ((ty * 16) + tx);
// CHECK-NEXT:   for (int t = 0; t < (n / 16); t++) {
// CHECK-NEXT:     int sarek_t16 = (t * 16);
// CHECK-NEXT:     tile_a[slot] = a[((row * n) + (sarek_t16 + tx))];
// CHECK-NEXT:     tile_b[slot] = b[(((sarek_t16 + ty) * n) + col)];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:     for (int k = 0; k < 16; k++) {
// CHECK-NEXT:       acc = (acc + (tile_a[((ty * 16) + k)] * tile_b[((k * 16) + tx)]));
// CHECK-NEXT:     }
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   c[((row * n) + col)] = acc;
// CHECK-NEXT: }
