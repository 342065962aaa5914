// RUN: sarek-opt %S/../Inputs/float_atomics.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s
// RUN: sarek-opt %S/../Inputs/float_atomics_f64.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=F64
// OpenCL C float atomics: atomic_xchg is OpenCL C 1.2's one native float atomic; add, sub, min, max are
// compare-and-swap loops on the bits (atomic_cmpxchg on volatile __global/__local int*, as_int/as_float),
// cas one atomic_cmpxchg of the bits. f64: the same on long (atom_cmpxchg, atom_xchg), which needs
// cl_khr_int64_base_atomics: the source says so with #error on a device without it. Each returns the old value.
// add/sub on global memory have a native branch for NVIDIA's OpenCL (inline PTX atom.global.add: the CAS loop
// is quadratic under contention there); sub adds the negated operand; f64's needs SAREK_NV_F64_ATOMIC_ADD,
// which the runtime defines for compute capability >= 6.0. Shared memory and min/max keep the loop.

// CHECK-NOT:   cl_khr_int64_base_atomics
// CHECK:       #if defined(__NV_CL_C_VERSION)
// CHECK-NEXT:  static inline float sarek_nv_atom_add_f32(volatile __global float* p, float v) {
// CHECK-NEXT:    float old;
// CHECK-NEXT:    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
// CHECK-NEXT:    return old;
// CHECK-NEXT:  }
// CHECK-NEXT:  #endif
// CHECK-LABEL: static inline float sarek_atomic_add_f32_global(__global float* p, float v) {
// CHECK-NEXT:  #if defined(__NV_CL_C_VERSION)
// CHECK-NEXT:    return sarek_nv_atom_add_f32(p, v);
// CHECK-NEXT:  #else
// CHECK-NEXT:    volatile __global int* a = (volatile __global int*)p;
// CHECK-NEXT:    int old = *a, seen;
// CHECK-NEXT:    do {
// CHECK-NEXT:      seen = old;
// CHECK-NEXT:      float x = as_float(seen);
// CHECK-NEXT:      old = atomic_cmpxchg(a, seen, as_int(x + v));
// CHECK-NEXT:    } while (old != seen);
// CHECK-NEXT:    return as_float(old);
// CHECK-NEXT:  #endif
// CHECK-NEXT:  }
// CHECK-LABEL: static inline float sarek_atomic_sub_f32_shared(__local float* p, float v) {
// CHECK-NEXT:    volatile __local int* a = (volatile __local int*)p;
// CHECK:           old = atomic_cmpxchg(a, seen, as_int(x - v));
// CHECK-LABEL: static inline float sarek_atomic_min_f32_global(__global float* p, float v) {
// CHECK-NEXT:    volatile __global int* a = (volatile __global int*)p;
// CHECK:           old = atomic_cmpxchg(a, seen, as_int(v < x ? v : x));
// CHECK-LABEL: static inline float sarek_atomic_max_f32_shared(__local float* p, float v) {
// CHECK:           old = atomic_cmpxchg(a, seen, as_int(v > x ? v : x));
// CHECK-LABEL: static inline float sarek_atomic_cas_f32_global(__global float* p, float v, float w) {
// CHECK:         return as_float(atomic_cmpxchg(a, as_int(v), as_int(w)));
// CHECK-LABEL: __kernel void k(
// CHECK:         float sarek_a = sarek_atomic_add_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_s = sarek_atomic_sub_f32_shared(&s[0], x);
// CHECK-NEXT:    float sarek_m = sarek_atomic_min_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_n = sarek_atomic_max_f32_shared(&s[0], x);
// CHECK-NEXT:    float sarek_e = atomic_xchg(&v[0], x);
// CHECK-NEXT:    float sarek_e2 = atomic_xchg(&s[0], x);
// CHECK-NEXT:    float sarek_c = sarek_atomic_cas_f32_global(&v[0], x, sarek_a);
// CHECK-NEXT:    float sarek_c2 = sarek_atomic_cas_f32_shared(&s[0], x, sarek_a);
// CHECK:         sarek_atomic_sub_f32_shared(&s[0], 1.0f)

// F64:         #ifndef cl_khr_int64_base_atomics
// F64-NEXT:    #error "64-bit atomics (on i64, u64 or f64) need cl_khr_int64_base_atomics, which this OpenCL device lacks: use 32-bit elements"
// F64-NEXT:    #endif
// F64-NEXT:    #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// F64:       #if defined(__NV_CL_C_VERSION) && defined(SAREK_NV_F64_ATOMIC_ADD)
// F64-NEXT:  static inline double sarek_nv_atom_add_f64(volatile __global double* p, double v) {
// F64:         asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(old) : "l"(p), "d"(v) : "memory");
// F64-LABEL: static inline double sarek_atomic_add_f64_global(__global double* p, double v) {
// F64-NEXT:  #if defined(__NV_CL_C_VERSION) && defined(SAREK_NV_F64_ATOMIC_ADD)
// F64-NEXT:    return sarek_nv_atom_add_f64(p, v);
// F64-NEXT:  #else
// F64-NEXT:    volatile __global long* a = (volatile __global long*)p;
// F64-NEXT:    long old = *a, seen;
// F64:           double x = as_double(seen);
// F64-NEXT:      old = atom_cmpxchg(a, seen, as_long(x + v));
// F64-LABEL: static inline double sarek_atomic_exch_f64_global(__global double* p, double v) {
// F64:         return as_double(atom_xchg(a, as_long(v)));
// F64-LABEL: static inline double sarek_atomic_cas_f64_global(__global double* p, double v, double w) {
// F64:         return as_double(atom_cmpxchg(a, as_long(v), as_long(w)));
