// RUN: sarek-opt %s -t glsl | filecheck %s
// A float converted to u32/u64 (and to i32/i64) on GLSL goes through a helper that saturates as the
// interpreters do (NaN gives 0, values <= the lower bound it, values >= 2^32 / 2^64 the largest value): GLSL's
// uint(x) is undefined out of range, and the Vulkan driver runs glslang's OpConvertFToU as it is (lavapipe gave
// 0xffffffff for -5.5). One overload per float type; the signed helper is the same shape (lowering/conversions.mlir).

// CHECK:      uint sarek_f2i_u32(float x) {
// CHECK-NEXT:   float y = ((x > 0.0) && (x < 4.2949673e+09) ? x : 0.0);
// CHECK-NEXT:   return (x >= 4.2949673e+09 ? 4294967295u : (x <= 0.0 ? 0u : uint(y)));
// CHECK:      uint64_t sarek_f2i_u64(double x) {
// CHECK-NEXT:   double y = ((x > 0.0lf) && (x < 1.8446744073709552e+19lf) ? x : 0.0lf);
// CHECK-NEXT:   return (x >= 1.8446744073709552e+19lf ? 18446744073709551615UL : (x <= 0.0lf ? 0UL : uint64_t(y)));
// CHECK:      uint sarek_f2i_u32(double x) {
// CHECK:        o[0] = sarek_f2i_u32(x_);
// CHECK-NEXT:   o64[0] = sarek_f2i_u64(d);
// CHECK-NEXT:   o[1] = sarek_f2i_u32(d);
// CHECK-NEXT:   s[0] = sarek_f2i_i32(x_);

builtin.module {
  sarek.kernel @k(%x : f32 "x", %d : f64 "d", %o : !sarek.vec<ui32> "o", %o64 : !sarek.vec<ui64> "o64",
                  %s : !sarek.vec<i32> "s") {
    %c0 = sarek.constant 0 : i32
    %c1 = sarek.constant 1 : i32
    %u = sarek.cast %x : f32 to ui32
    %r = sarek.elem_ref %o[%c0] : !sarek.vec<ui32>
    sarek.store %r, %u : !sarek.ref<ui32>
    %w = sarek.cast %d : f64 to ui64
    %r64 = sarek.elem_ref %o64[%c0] : !sarek.vec<ui64>
    sarek.store %r64, %w : !sarek.ref<ui64>
    %v = sarek.cast %d : f64 to ui32
    %r1 = sarek.elem_ref %o[%c1] : !sarek.vec<ui32>
    sarek.store %r1, %v : !sarek.ref<ui32>
    %i = sarek.cast %x : f32 to i32
    %rs = sarek.elem_ref %s[%c0] : !sarek.vec<i32>
    sarek.store %rs, %i : !sarek.ref<i32>
  }
}
