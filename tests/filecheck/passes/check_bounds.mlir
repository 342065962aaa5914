// RUN: sarek-opt %s -p 'sarek-check-bounds' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-check-bounds' | filecheck %s --check-prefix=TWICE
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=metal}' -t metal | filecheck %s --check-prefix=METAL
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=glsl}' -t glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-check-bounds,sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=RELEASE

// Every vector and shared access, the integer division by a non-constant and the helper's store get a check;
// the kernel (and the helper that checks) gain the hidden `sarek_debug` buffer; `%n rem 2` is not checked.
builtin.module {
  sarek.helper @put(%v : !sarek.vec<f32> "v", %j : i32 "j") -> !sarek.unit {
    %x = sarek.constant 1.0 : f32
    %p = sarek.elem_ref %v[%j] : !sarek.vec<f32> loc("k.py":3:5)
    sarek.store %p, %x : !sarek.ref<f32>
    sarek.return
  }
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c64 = sarek.constant 64 : i32
    %s = sarek.alloc_array "s"[%c64] : !sarek.array<f32, shared>
    %r = sarek.array_read %v[%t] : !sarek.vec<f32> loc("k.py":9:9)
    %p = sarek.elem_ref %s[%t] : !sarek.array<f32, shared>
    sarek.store %p, %r : !sarek.ref<f32>
    %q = sarek.binop div %n, %t : i32 loc("k.py":11:9)
    %two = sarek.constant 2 : i32
    %h = sarek.binop rem %n, %two : i32
    sarek.call @put(%v, %q) : (!sarek.vec<f32>, i32) -> ()
  }
}

// CHECK:      builtin.module attributes {sarek.debug_checks = [["k.py:3:5", "bounds", "write to 'v'"], ["k.py:9:9", "bounds", "read of 'v'"], ["<unknown>", "bounds", "write to 's'"], ["k.py:11:9", "div", "integer division by zero"]]} {
// CHECK-NEXT:   sarek.helper @sarek_check_failed(%sarek_debug: !sarek.vec<i32> "sarek_debug", %check: i32 "check", %lo: i32 "lo", %hi: i32 "hi", %extent: i32 "extent") -> !sarek.unit {
// CHECK:          "atomic_add"(%sarek_debug, %{{.*}}, %{{.*}})
// CHECK:          %[[OLD:.*]] = sarek.intrinsic "atomic_exch"(%sarek_debug, %{{.*}}, %{{.*}})
// CHECK:          sarek.binop eq %[[OLD]]
// CHECK:        sarek.helper @put(%v: !sarek.vec<f32> "v", %j: i32 "j", %sarek_debug: !sarek.vec<i32> "sarek_debug") -> !sarek.unit {
// CHECK:          %[[LEN:.*]] = sarek.array_len %v : !sarek.vec<f32>
// CHECK:          %[[GE:.*]] = sarek.binop ge %j, %{{.*}} : i32
// CHECK-NEXT:     %[[LT:.*]] = sarek.binop lt %j, %[[LEN]] : i32
// CHECK-NEXT:     %[[OK:.*]] = sarek.binop and %[[GE]], %[[LT]] : i1
// CHECK-NEXT:     %[[SAFE:.*]] = sarek.if_expr %[[OK]] -> i32 {
// CHECK-NEXT:       sarek.yield %j : i32
// CHECK-NEXT:     } else {
// CHECK:            sarek.call @sarek_check_failed(%sarek_debug, %{{.*}}, %j, %{{.*}}, %[[LEN]])
// CHECK:          %p = sarek.elem_ref %v[%[[SAFE]]] : !sarek.vec<f32>
// CHECK-NEXT:     sarek.if %[[OK]] {
// CHECK-NEXT:       sarek.store %p, %x : !sarek.ref<f32>
// CHECK-NEXT:     }
// CHECK:        sarek.kernel @k(%v: !sarek.vec<f32> "v", %n: i32 "n", %sarek_debug: !sarek.vec<i32> "sarek_debug") {
// CHECK:          sarek.array_read %v[%{{.*}}] : !sarek.vec<f32>
// CHECK:          sarek.elem_ref %s[%{{.*}}] : !sarek.array<f32, shared>
// CHECK:          %[[D:.*]] = sarek.if_expr %{{.*}} -> i32 {
// CHECK-NEXT:       sarek.yield %t : i32
// CHECK-NEXT:     } else {
// CHECK:            sarek.call @sarek_check_failed
// CHECK:            %[[ONE:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:       sarek.yield %[[ONE]] : i32
// CHECK:          %q = sarek.binop div %n, %[[D]] : i32
// CHECK:          %h = sarek.binop rem %n, %two : i32
// CHECK-NEXT:     sarek.call @put(%v, %q, %sarek_debug)

// A module that has its checks already is left as it is.
// TWICE:      builtin.module attributes {sarek.debug_checks = [["k.py:3:5", "bounds", "write to 'v'"], ["k.py:9:9", "bounds", "read of 'v'"], ["<unknown>", "bounds", "write to 's'"], ["k.py:11:9", "div", "integer division by zero"]]} {
// TWICE-COUNT-1: sarek.helper @sarek_check_failed
// TWICE:      sarek.kernel @k(%v: !sarek.vec<f32> "v", %n: i32 "n", %sarek_debug: !sarek.vec<i32> "sarek_debug") {
// TWICE-COUNT-3: sarek.call @sarek_check_failed
// TWICE-NOT:  sarek.call @sarek_check_failed

// CUDA:       void v_sarek_check_failed_1(int* v_sarek_debug_1, int sarek_v_sarek_debug_1_length, int check, int lo, int hi, int extent) {
// CUDA-NEXT:    atomicAdd(&v_sarek_debug_1[13], 1);
// CUDA-NEXT:    if (atomicExch(&v_sarek_debug_1[0], 1) == 0) {
// CUDA:       __global__ void k(float* __restrict__ v, int sarek_v_length, int n, int* __restrict__ v_sarek_debug_{{[0-9]+}}, int sarek_v_sarek_debug_{{[0-9]+}}_length) {
// OPENCL:     void v_sarek_check_failed_1(__global int* v_sarek_debug_1, int sarek_v_sarek_debug_1_length, int check, int lo, int hi, int extent) {
// OPENCL-NEXT:  atomic_add(&v_sarek_debug_1[13], 1);
// OPENCL-NEXT:  if (atomic_xchg(&v_sarek_debug_1[0], 1) == 0) {
// OPENCL:     __kernel void k(
// METAL:      atomic_exchange_explicit((volatile device atomic_int*)&v_sarek_debug_1[0], 1, memory_order_relaxed) == 0
// GLSL:       buffer Buffer_sarek_debug { int sarek_debug[]; };
// GLSL:       int sarek_t = atomicExchange(sarek_debug[0], 1);
// WGSL:       var<storage, read_write> sarek_debug : array<atomic<i32>>;
// WGSL:       atomicExchange(&sarek_debug[0i], 1i);
// PTX:        .param .u64 k_param_{{[0-9]+}},
// PTX:        atom.global.exch.b32
// RELEASE-NOT: sarek_debug
// RELEASE-NOT: check_failed
