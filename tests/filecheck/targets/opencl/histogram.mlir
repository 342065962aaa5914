// RUN: sarek-opt %S/../Inputs/histogram.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of histogram.mlir (the whole output, line by line)

// CHECK: __kernel void histogram(__global int* restrict data, int sarek_data_length, __global int* restrict hist, int sarek_hist_length, int n) {
// CHECK-NEXT:   __local int counts[16];
// CHECK-NEXT:   int zi = ((int)get_local_id(0) + ((int)get_local_size(0) * ((int)get_local_id(1) + ((int)get_local_size(1) * (int)get_local_id(2)))));
// CHECK-NEXT:   while (zi < 16) {
// CHECK-NEXT:     counts[zi] = 0;
// CHECK-NEXT:     zi = (zi + ((int)get_local_size(0) * ((int)get_local_size(1) * (int)get_local_size(2))));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int tid = (int)get_local_id(0);
// CHECK-NEXT:   int sarek_small = (tid < 16);
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     counts[tid] = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int i = (int)get_global_id(0);
// CHECK-NEXT:   while (i < n) {
// CHECK-NEXT:     atomic_add(&counts[(data[i] % 16)], 1);
// CHECK-NEXT:     i = (i + (int)get_global_size(0));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   if (sarek_small) {
// CHECK-NEXT:     atomic_add(&hist[tid], counts[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
