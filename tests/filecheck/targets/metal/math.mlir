// RUN: sarek-opt %S/../Inputs/cf_math.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --match-full-lines
// metal source of cf_math.mlir (the whole output, line by line)

// CHECK: #include <metal_stdlib>
// CHECK-NEXT: using namespace metal;
// CHECK-EMPTY:
// CHECK-NEXT: static inline int sarek_atomic_cas_device(volatile device atomic_int* p, int cmp, int x) {
// CHECK-NEXT:   int seen = cmp;
// CHECK-NEXT:   while (!atomic_compare_exchange_weak_explicit(p, &seen, x, memory_order_relaxed, memory_order_relaxed) && seen == cmp) {}
// CHECK-NEXT:   return seen;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void math(device float* x {{\[\[}}buffer(0)]], constant int &sarek_x_length {{\[\[}}buffer(1)]], device int* k {{\[\[}}buffer(2)]], constant int &sarek_k_length {{\[\[}}buffer(3)]], device int* acc {{\[\[}}buffer(4)]], constant int &sarek_acc_length {{\[\[}}buffer(5)]], uint3 __metal_gid {{\[\[}}thread_position_in_grid]], uint3 __metal_tid {{\[\[}}thread_position_in_threadgroup]], uint3 __metal_bid {{\[\[}}threadgroup_position_in_grid]], uint3 __metal_tpg {{\[\[}}threads_per_threadgroup]], uint3 __metal_num_groups {{\[\[}}threadgroups_per_grid]], uint __metal_lane {{\[\[}}thread_index_in_simdgroup]], uint __metal_width {{\[\[}}threads_per_simdgroup]]) {
// CHECK-NEXT:   float sarek_v = x[(int)__metal_gid.x];
// CHECK-NEXT:   float sarek_a = sqrt(sarek_v);
// CHECK-NEXT:   x[(int)__metal_gid.x] = fabs(pow(fmin(fma(sarek_a, sarek_v, sarek_v), sarek_v), sarek_a));
// CHECK-NEXT:   int sarek_pc = (int)popcount((int)clz(max((int)abs(k[(int)__metal_gid.x]), (int)__metal_gid.x)));
// CHECK-NEXT:   k[(int)__metal_gid.x] = sarek_pc;
// CHECK-NEXT:   int sarek_o1 = atomic_fetch_max_explicit((volatile device atomic_int*)&acc[0], sarek_pc, memory_order_relaxed);
// CHECK-NEXT:   sarek_atomic_cas_device((volatile device atomic_int*)&acc[0], sarek_o1, atomic_fetch_add_explicit((volatile device atomic_int*)&acc[(int)__metal_gid.x], 1, memory_order_relaxed));
// CHECK-NEXT: }
