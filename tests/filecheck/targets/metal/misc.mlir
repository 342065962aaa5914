// RUN: sarek-opt %S/../Inputs/cf_misc.mlir -p 'sarek-pipeline{target=metal opt=off}' -t metal | filecheck %s --match-full-lines
// metal source of cf_misc.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: static inline int sarek_sat_i32_float(float x) { return x != x ? (int)0 : x <= -2147483648.0f ? (int)(-2147483647 - 1) : x >= 2147483648.0f ? (int)2147483647 : (int)x; }
// CHECK-EMPTY:
// CHECK-NEXT: enum { None = 0, Some = 1 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     long Some_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } opt;
// CHECK-EMPTY:
// CHECK-NEXT: static inline opt make_opt_None() {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = None;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline opt make_opt_Some(long v) {
// CHECK-NEXT:   opt r;
// CHECK-NEXT:   r.tag = Some;
// CHECK-NEXT:   r.data.Some_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: int gid(uint3 __metal_gid, uint3 __metal_tid, uint3 __metal_bid, uint3 __metal_tpg, uint3 __metal_num_groups, uint __metal_lane, uint __metal_width) {
// CHECK-NEXT:   return (int)__metal_gid.x;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void misc(device long* out {{\[\[}}buffer(0)]], constant int &sarek_out_length {{\[\[}}buffer(1)]], device float* f {{\[\[}}buffer(2)]], constant int &sarek_f_length {{\[\[}}buffer(3)]], constant int &flag {{\[\[}}buffer(4)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   int sarek_i = gid(__metal_gid, __metal_tid, __metal_bid, __metal_tpg, __metal_num_groups, __metal_lane, __metal_width);
// CHECK-NEXT:   long tmp[8] = {0};
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT:   for (int k = 8; k > 0; k -= 2) {
// CHECK-NEXT:     tmp[(k - 1)] = ((long)k + 5000000000L);
// CHECK-NEXT:   }
// CHECK-NEXT:   opt sarek_o = (flag ? make_opt_Some(tmp[0]) : make_opt_None());
// CHECK-NEXT:   long sarek_r;
// CHECK-NEXT:   switch (sarek_o.tag) {
// CHECK-NEXT:     case Some: {
// CHECK-NEXT:       long xl = sarek_o.data.Some_v;
// CHECK-NEXT:       sarek_r = (xl * 2L);
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:     default: {
// CHECK-NEXT:       sarek_r = -1L;
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   {
// CHECK-NEXT:     out[sarek_i] = sarek_r;
// CHECK-NEXT:   }
// CHECK-NEXT:   atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
// CHECK-NEXT:   float sarek_fi = f[sarek_i];
// CHECK-NEXT:   f[sarek_i] = ((!(sarek_sat_i32_float(sarek_fi) != 0)) ? (-sarek_fi) : 0.0015f);
// CHECK-NEXT:   /* metal native */
// CHECK-NEXT: }
