// RUN: sarek-opt %s -p 'sarek-pipeline{target=wgsl opt=off}' -t wgsl | filecheck %s

// WGSL: f32 -> i32/u32 through the saturating helper (naga clamps i32 at 2147483520, the f32 below 2^31, and
// NaN is undefined); `/` needs no helper, WGSL defines INT_MIN / -1 = INT_MIN (and `%`'s helper divides once).
builtin.module {
  sarek.kernel @k(%x : f32 "x", %a : i32 "a", %b : i32 "b", %o : !sarek.vec<i32> "o", %u : !sarek.vec<ui32> "u") {
    %z = sarek.constant 0 : i32
    %i = sarek.cast %x : f32 to i32
    %ui = sarek.cast %x : f32 to ui32
    %q = sarek.binop div %a, %b : i32
    %p = sarek.elem_ref %o[%z] : !sarek.vec<i32>
    sarek.store %p, %i : !sarek.ref<i32>
    sarek.store %p, %q : !sarek.ref<i32>
    %pu = sarek.elem_ref %u[%z] : !sarek.vec<ui32>
    sarek.store %pu, %ui : !sarek.ref<ui32>
  }
}
// CHECK:      fn sarek_f2i_i32(x : f32) -> i32 {
// CHECK-NEXT:   let y : f32 = select(0.0f, x, (x > (-2.14748365e+09f)) && (x < 2.14748365e+09f));
// CHECK-NEXT:   return select(select(i32(y), (-2147483647i - 1i), x <= (-2.14748365e+09f)), 2147483647i, x >= 2.14748365e+09f);
// CHECK:      fn sarek_f2i_u32(x : f32) -> u32 {
// CHECK-NEXT:   let y : f32 = select(0.0f, x, (x > 0.0f) && (x < 4.2949673e+09f));
// CHECK-NEXT:   return select(select(u32(y), 0u, x <= 0.0f), 4294967295u, x >= 4.2949673e+09f);
// CHECK-NOT:  sarek_idiv
// CHECK:        o[0i] = sarek_f2i_i32(params.x);
// CHECK-NEXT:   o[0i] = (params.a / params.b);
// CHECK-NEXT:   u[0i] = sarek_f2i_u32(params.x);
