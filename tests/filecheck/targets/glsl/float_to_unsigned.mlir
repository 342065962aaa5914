// RUN: sarek-opt %s -t glsl | filecheck %s
// A float converted to u32/u64 on GLSL goes through a helper that saturates as the interpreters do (NaN and
// values <= 0 give 0, values >= 2^32 / 2^64 the largest value): GLSL's uint(x) is undefined out of range, and
// the Vulkan driver runs glslang's OpConvertFToU as it is (lavapipe gave 0xffffffff for -5.5). One overload
// per float type; casts to signed types stay plain constructors.

// CHECK:      uint sarek_f2u32(float x) {
// CHECK-NEXT:   return (!(x > float(0))) ? 0u : ((x >= float(4294967296.0)) ? 4294967295u : uint(x));
// CHECK:      uint64_t sarek_f2u64(double x) {
// CHECK-NEXT:   return (!(x > double(0))) ? 0UL : ((x >= double(18446744073709551616.0)) ? 18446744073709551615UL : uint64_t(x));
// CHECK:      uint sarek_f2u32(double x) {
// CHECK:        o[0] = sarek_f2u32(x_);
// CHECK-NEXT:   o64[0] = sarek_f2u64(d);
// CHECK-NEXT:   o[1] = sarek_f2u32(d);
// CHECK-NEXT:   s[0] = int(x_);

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
