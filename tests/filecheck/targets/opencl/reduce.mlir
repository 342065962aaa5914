// RUN: sarek-opt %S/../../../../examples/reduce.mlir -p 'sarek-pipeline{target=opencl opt=off}' -t opencl | filecheck %s --match-full-lines
// opencl source of reduce.mlir (the whole output, line by line)

// CHECK: __kernel void reduce_sum(__global float* restrict a, int sarek_a_length, __global float* restrict out, int sarek_out_length, int n) {
// CHECK-NEXT:   __local float sdata[256];
// CHECK-NEXT:   int zi = ((int)get_local_id(0) + ((int)get_local_size(0) * ((int)get_local_id(1) + ((int)get_local_size(1) * (int)get_local_id(2)))));
// CHECK-NEXT:   while (zi < 256) {
// CHECK-NEXT:     sdata[zi] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)get_local_size(0) * ((int)get_local_size(1) * (int)get_local_size(2))));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int tid = (int)get_local_id(0);
// CHECK-NEXT:   int gid = (int)get_global_id(0);
// CHECK-NEXT:   sdata[tid] = ((gid < n) ? a[gid] : 0.0f);
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int s = 128;
// CHECK-NEXT:   while (s > 0) {
// CHECK-NEXT:     if (tid < s) {
// CHECK-NEXT:       sdata[tid] = (sdata[tid] + sdata[(tid + s)]);
// CHECK-NEXT:     }
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:     s = (s >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (tid == 0) {
// CHECK-NEXT:     out[(int)get_group_id(0)] = sdata[0];
// CHECK-NEXT:   }
// CHECK-NEXT: }
