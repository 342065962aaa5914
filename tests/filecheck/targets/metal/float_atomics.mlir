// RUN: sarek-opt %S/../Inputs/float_atomics.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s
// Metal float atomics: on device memory add and sub are Metal 3's atomic_float fetch-add/sub (#if
// __METAL_VERSION__ >= 300), else — and always on threadgroup memory, and for min/max — a compare-and-swap
// loop on the bits through atomic_int (sarek_atomic_cas_<space>: a weak exchange retried while it fails
// spuriously); exch and cas are one atomic_exchange / compare-exchange of the bits. Each returns the old value.

// CHECK-LABEL: static inline int sarek_atomic_cas_device(volatile device atomic_int* p, int cmp, int x) {
// CHECK-LABEL: static inline float sarek_atomic_add_f32_global(device float* p, float v) {
// CHECK-NEXT:  #if __METAL_VERSION__ >= 300
// CHECK-NEXT:    return atomic_fetch_add_explicit((volatile device atomic_float*)p, v, memory_order_relaxed);
// CHECK-NEXT:  #else
// CHECK-NEXT:    volatile device atomic_int* a = (volatile device atomic_int*)p;
// CHECK-NEXT:    int old = atomic_load_explicit(a, memory_order_relaxed), seen;
// CHECK-NEXT:    do {
// CHECK-NEXT:      seen = old;
// CHECK-NEXT:      float x = as_type<float>(seen);
// CHECK-NEXT:      old = sarek_atomic_cas_device(a, seen, as_type<int>(x + v));
// CHECK-NEXT:    } while (old != seen);
// CHECK-NEXT:    return as_type<float>(old);
// CHECK-NEXT:  #endif
// CHECK-NEXT:  }
// CHECK-LABEL: static inline int sarek_atomic_cas_threadgroup(volatile threadgroup atomic_int* p, int cmp, int x) {
// CHECK-LABEL: static inline float sarek_atomic_sub_f32_shared(threadgroup float* p, float v) {
// CHECK-NEXT:    volatile threadgroup atomic_int* a = (volatile threadgroup atomic_int*)p;
// CHECK:           old = sarek_atomic_cas_threadgroup(a, seen, as_type<int>(x - v));
// CHECK-LABEL: static inline float sarek_atomic_min_f32_global(device float* p, float v) {
// CHECK-NOT:   #if
// CHECK:           old = sarek_atomic_cas_device(a, seen, as_type<int>(v < x ? v : x));
// CHECK-LABEL: static inline float sarek_atomic_max_f32_shared(threadgroup float* p, float v) {
// CHECK:           old = sarek_atomic_cas_threadgroup(a, seen, as_type<int>(v > x ? v : x));
// CHECK-LABEL: static inline float sarek_atomic_exch_f32_global(device float* p, float v) {
// CHECK:         return as_type<float>(atomic_exchange_explicit(a, as_type<int>(v), memory_order_relaxed));
// CHECK-LABEL: static inline float sarek_atomic_cas_f32_shared(threadgroup float* p, float v, float w) {
// CHECK:         return as_type<float>(sarek_atomic_cas_threadgroup(a, as_type<int>(v), as_type<int>(w)));
// CHECK-LABEL: kernel void k(
// CHECK:         float sarek_a = sarek_atomic_add_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_s = sarek_atomic_sub_f32_shared(&s[0], x);
// CHECK-NEXT:    float sarek_m = sarek_atomic_min_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_n = sarek_atomic_max_f32_shared(&s[0], x);
// CHECK-NEXT:    float sarek_e = sarek_atomic_exch_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_e2 = sarek_atomic_exch_f32_shared(&s[0], x);
