// RUN: sarek-opt %S/../Inputs/float_atomics.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s
// RUN: sarek-opt %S/../Inputs/float_atomics_f64.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=F64
// HIP float atomics: the CUDA spellings (see cuda/float_atomics.mlir), behind the HIP header.
// CHECK: #include <hip/hip_runtime.h>

// CHECK-LABEL: __device__ __forceinline__ float sarek_atomic_min_f32_global(float* p, float v) {
// CHECK-NEXT:    int* a = (int*)p;
// CHECK-NEXT:    int old = *a, seen;
// CHECK-NEXT:    do {
// CHECK-NEXT:      seen = old;
// CHECK-NEXT:      float x = __int_as_float(seen);
// CHECK-NEXT:      old = atomicCAS(a, seen, __float_as_int(v < x ? v : x));
// CHECK-NEXT:    } while (old != seen);
// CHECK-NEXT:    return __int_as_float(old);
// CHECK-NEXT:  }
// CHECK-LABEL: float sarek_atomic_max_f32_shared(float* p, float v) {
// CHECK:         old = atomicCAS(a, seen, __float_as_int(v > x ? v : x));
// CHECK-LABEL: float sarek_atomic_cas_f32_global(float* p, float v, float w) {
// CHECK-NEXT:    int* a = (int*)p;
// CHECK-NEXT:    return __int_as_float(atomicCAS(a, __float_as_int(v), __float_as_int(w)));
// CHECK-LABEL: extern "C" __global__ void k(
// CHECK:         float sarek_a = atomicAdd(&v[0], x);
// CHECK-NEXT:    float sarek_s = atomicAdd(&s[0], -(x));
// CHECK-NEXT:    float sarek_m = sarek_atomic_min_f32_global(&v[0], x);
// CHECK-NEXT:    float sarek_n = sarek_atomic_max_f32_shared(&s[0], x);
// CHECK-NEXT:    float sarek_e = atomicExch(&v[0], x);
// CHECK-NEXT:    float sarek_e2 = atomicExch(&s[0], x);
// CHECK-NEXT:    float sarek_c = sarek_atomic_cas_f32_global(&v[0], x, sarek_a);
// CHECK-NEXT:    float sarek_c2 = sarek_atomic_cas_f32_shared(&s[0], x, sarek_a);
// CHECK:         atomicAdd(&s[0], -1.0f)

// F64-LABEL: double sarek_atomic_min_f64_global(double* p, double v) {
// F64-NEXT:    unsigned long long* a = (unsigned long long*)p;
// F64-NEXT:    unsigned long long old = *a, seen;
// F64:           double x = __longlong_as_double((long long)seen);
// F64-NEXT:      old = atomicCAS(a, seen, (unsigned long long)__double_as_longlong(v < x ? v : x));
// F64:         return __longlong_as_double((long long)old);
// F64-LABEL: double sarek_atomic_exch_f64_global(double* p, double v) {
// F64:         return __longlong_as_double((long long)atomicExch(a, (unsigned long long)__double_as_longlong(v)));
// F64-LABEL: double sarek_atomic_cas_f64_global(double* p, double v, double w) {
// F64:         atomicCAS(a, (unsigned long long)__double_as_longlong(v), (unsigned long long)__double_as_longlong(w))
// F64-LABEL: extern "C" __global__ void k(
// F64:         double sarek_a = atomicAdd(&d[0], y);
// F64-NEXT:    double sarek_s = atomicAdd(&d[0], -(y));
// F64-NEXT:    double sarek_m = sarek_atomic_min_f64_global(&d[0], y);
// F64-NEXT:    double sarek_n = sarek_atomic_max_f64_global(&d[0], y);
// F64-NEXT:    double sarek_e = sarek_atomic_exch_f64_global(&d[0], y);
// F64-NEXT:    o[0] = {{.*}} + sarek_atomic_cas_f64_global(&d[0], y, sarek_a));
