// RUN: sarek-opt %s -t glsl | filecheck %s
// RUN: sarek-opt %s -t wgsl | filecheck %s --check-prefix=WGSL
// C semantics where GLSL/WGSL leave them undefined or inaccurate, from the math library's f32 forms
// (sarek-expand-math, sarek/mathlib): pow of a negative base with an integer exponent (and of 0), hypot
// without overflow, expm1/log1p accurate near 0 (series, not exp(x) - 1). Each product before a sum is an fma.

// CHECK:      float sarek_pow_via_pow_f32(float x, float y) {
// CHECK-NEXT:   float sarek_t = abs(x);
// CHECK-NEXT:   float sarek_t1 = ((sarek_t == 0.0) ? 0.0 : pow(sarek_t, y));
// CHECK-NEXT:   bool sarek_t2 = (trunc(y) == y);
// CHECK:        return ((((y == 0.0) || (x == 1.0)) || {{.*}} ? 1.0 : {{.*}}
// CHECK:      float sarek_hypot_scaled_f32(float x, float y) {
// CHECK:        float sarek_t2 = max(sarek_t, sarek_t1);
// CHECK-NEXT:   float sarek_t3 = (min(sarek_t, sarek_t1) / sarek_t2);
// CHECK-NEXT:   return (((sarek_t2 == 0.0) || (sarek_t2 == uintBitsToFloat(2139095040u))) ? sarek_t2 : (sarek_t2 * sqrt(fma(sarek_t3, sarek_t3, 1.0))));
// CHECK:      float sarek_expm1_via_exp_f32(float x) {
// CHECK-NEXT:   return ((abs(x) > 0.5) ? (exp(x) - 1.0) : (x * fma({{.*}}, x, 0.5), x, 1.0)));
// CHECK:      float sarek_log1p_via_log_f32(float x) {
// CHECK-NEXT:   float sarek_t = (x / (2.0 + x));
// CHECK-NEXT:   float sarek_t1 = (sarek_t * sarek_t);
// CHECK-NEXT:   return ((abs(x) > 0.5) ? log((1.0 + x)) : ((sarek_t * 2.0) * fma({{.*}}, sarek_t1, 0.333333343), sarek_t1, 1.0)));
// CHECK:      float sarek_t = sarek_pow_via_pow_f32(x_, y_);
// CHECK-NEXT: float sarek_t1 = sarek_hypot_scaled_f32(x_, y_);
// CHECK-NEXT: float sarek_t2 = sarek_expm1_via_exp_f32(x_);
// CHECK-NEXT: float sarek_t3 = sarek_log1p_via_log_f32(x_);
// CHECK-NEXT: o[0] = (((sarek_t + sarek_t1) + sarek_t2) + sarek_t3);

// WGSL:      fn sarek_pow_via_pow_f32(x_1 : f32, y_1 : f32) -> f32 {
// WGSL-NEXT:   let sarek_t : f32 = abs(x_1);
// WGSL-NEXT:   let sarek_t1 : f32 = select(pow(sarek_t, y_1), 0.0f, (sarek_t == 0.0f));
// WGSL:      fn sarek_hypot_scaled_f32(x_1 : f32, y_1 : f32) -> f32 {
// WGSL:        return select((sarek_t2 * sqrt(fma(sarek_t3, sarek_t3, 1.0f))), sarek_t2, ((sarek_t2 == 0.0f) || (sarek_t2 == bitcast<f32>(2139095040u))));

builtin.module {
  sarek.kernel @k(%x : f32 "x", %y : f32 "y", %o : !sarek.vec<f32> "o") {
    %p = sarek.intrinsic "pow"(%x, %y) : (f32, f32) -> f32
    %h = sarek.intrinsic "hypot"(%x, %y) : (f32, f32) -> f32
    %e = sarek.intrinsic "expm1"(%x) : (f32) -> f32
    %l = sarek.intrinsic "log1p"(%x) : (f32) -> f32
    %s1 = sarek.binop add %p, %h : f32
    %s2 = sarek.binop add %s1, %e : f32
    %s3 = sarek.binop add %s2, %l : f32
    %c0 = sarek.constant 0 : i32
    %r = sarek.elem_ref %o[%c0] : !sarek.vec<f32>
    sarek.store %r, %s3 : !sarek.ref<f32>
  }
}
