// RUN: sarek-opt %S/../Inputs/warp_reduce.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of warp_reduce.mlir (the whole output, line by line)

// CHECK: #if defined(cl_khr_subgroups) && defined(cl_khr_subgroup_shuffle)
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_subgroups : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
// CHECK-NEXT: #define SAREK_LANE_ID() ((int)get_sub_group_local_id())
// CHECK-NEXT: #define SAREK_WARP_SIZE() ((int)get_sub_group_size())
// CHECK-NEXT: #define SAREK_SHUFFLE(v, src) sub_group_shuffle((v), (uint)(src))
// CHECK-NEXT: #define SAREK_SUB_GROUP_BARRIER() sub_group_barrier(CLK_LOCAL_MEM_FENCE)
// CHECK-NEXT: #else
// CHECK-NEXT: /* no sub-groups on this device: a sub-group is one work-item */
// CHECK-NEXT: #define SAREK_LANE_ID() 0
// CHECK-NEXT: #define SAREK_WARP_SIZE() 1
// CHECK-NEXT: #define SAREK_SHUFFLE(v, src) (v)
// CHECK-NEXT: #define SAREK_SUB_GROUP_BARRIER() ((void)0)
// CHECK-NEXT: #endif
// CHECK-EMPTY:
// CHECK-NEXT: int sarek_warp_shuffle_down_i32(int v, int x) {
// CHECK-NEXT:   int lane = SAREK_LANE_ID();
// CHECK-NEXT:   int width = SAREK_WARP_SIZE();
// CHECK-NEXT:   int src = (((x >= 0) && (x < (width - lane))) ? (lane + x) : lane);
// CHECK-NEXT:   return SAREK_SHUFFLE(v, src);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void warp_sum(__global int* restrict x, int sarek_x_length, __global int* restrict total, int sarek_total_length, int n) {
// CHECK-NEXT:   int i = (int)get_global_id(0);
// CHECK-NEXT:   int v = ((i < n) ? x[i] : 0);
// CHECK-NEXT:   int offset = (SAREK_WARP_SIZE() >> 1);
// CHECK-NEXT:   while (offset > 0) {
// CHECK-NEXT:     v = (v + sarek_warp_shuffle_down_i32(v, offset));
// CHECK-NEXT:     offset = (offset >> 1);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (SAREK_LANE_ID() == 0) {
// CHECK-NEXT:     atomic_add(&total[0], v);
// CHECK-NEXT:   }
// CHECK-NEXT: }
