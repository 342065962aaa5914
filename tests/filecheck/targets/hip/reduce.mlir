// RUN: sarek-opt %S/../../../../examples/reduce.mlir -p 'sarek-pipeline{target=hip opt=off}' -t hip | filecheck %s --match-full-lines
// hip source of reduce.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void reduce_sum(float* __restrict__ a, int sarek_a_length, float* __restrict__ out, int sarek_out_length, int n) {
// CHECK-NEXT:   __shared__ float sdata[256];
// CHECK-NEXT:   int zi = ((int)threadIdx.x + ((int)blockDim.x * ((int)threadIdx.y + ((int)blockDim.y * (int)threadIdx.z))));
// CHECK-NEXT:   while (zi < 256) {
// CHECK-NEXT:     sdata[zi] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)blockDim.x * ((int)blockDim.y * (int)blockDim.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int tid = (int)threadIdx.x;
// CHECK-NEXT:   int gid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   sdata[tid] = ((gid < n) ? a[gid] : 0.0f);
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int s = 128;
// CHECK-NEXT:   while (s > 0) {
// CHECK-NEXT:     if (tid < s) {
// CHECK-NEXT:       sdata[tid] = (sdata[tid] + sdata[(tid + s)]);
// CHECK-NEXT:     }
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     s = (s >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (tid == 0) {
// CHECK-NEXT:     out[(int)blockIdx.x] = sdata[0];
// CHECK-NEXT:   }
// CHECK-NEXT: }
