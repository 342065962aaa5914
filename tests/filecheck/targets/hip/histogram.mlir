// RUN: sarek-opt %S/../Inputs/histogram.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of histogram.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void histogram(int* __restrict__ data, int sarek_data_length, int* __restrict__ hist, int sarek_hist_length, int n) {
// CHECK-NEXT:   __shared__ int counts[16];
// CHECK-NEXT:   int zi = ((int)threadIdx.x + ((int)blockDim.x * ((int)threadIdx.y + ((int)blockDim.y * (int)threadIdx.z))));
// CHECK-NEXT:   while (zi < 16) {
// CHECK-NEXT:     counts[zi] = 0;
// CHECK-NEXT:     zi = (zi + ((int)blockDim.x * ((int)blockDim.y * (int)blockDim.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int tid = (int)threadIdx.x;
// CHECK-NEXT:   int sarek_small = (tid < 16);
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     counts[tid] = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   while (i < n) {
// CHECK-NEXT:     atomicAdd(&counts[(data[i] % 16)], 1);
// CHECK-NEXT:     i = (i + (int)(blockDim.x * gridDim.x));
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     atomicAdd(&hist[tid], counts[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
