// RUN: sarek-opt %s -t glsl | filecheck %s
// RUN: sarek-opt %s -t wgsl | filecheck %s --check-prefix=WGSL
// C semantics where GLSL/WGSL leave them undefined or inaccurate: pow of a negative base with an integer
// exponent (and of 0), hypot without overflow, expm1/log1p accurate near 0 (series, not exp(x) - 1).

// CHECK:      float sarek_pow(float x, float y) {
// CHECK-NEXT:   float ax = abs(x);
// CHECK-NEXT:   bool yint = trunc(y) == y;
// CHECK-NEXT:   bool yodd = yint && fract(y * 0.5) != 0.0;
// CHECK-NEXT:   float r = (ax == 0.0) ? ((y < 0.0) ? uintBitsToFloat(0x7f800000u) : 0.0) : pow(ax, y);
// CHECK-NEXT:   r = (x < 0.0 && yodd) ? -r : r;
// CHECK-NEXT:   r = (x < 0.0 && !yint) ? uintBitsToFloat(0x7fc00000u) : r;
// CHECK-NEXT:   return (y == 0.0 || x == 1.0) ? 1.0 : r;
// CHECK:      float sarek_hypot(float x, float y) {
// CHECK-NEXT:   float ax = abs(x);
// CHECK-NEXT:   float ay = abs(y);
// CHECK-NEXT:   float m = max(ax, ay);
// CHECK-NEXT:   float r = min(ax, ay) / m;
// CHECK-NEXT:   return (m == 0.0 || isinf(m)) ? m : m * sqrt(1.0 + r * r);
// CHECK:      float sarek_expm1(float x) {
// CHECK-NEXT:   return (abs(x) > 0.5) ? exp(x) - 1.0 : x * (1.0 + x * (0.5 + {{.*}}
// CHECK:      float sarek_log1p(float x) {
// CHECK-NEXT:   float s = x / (2.0 + x);
// CHECK-NEXT:   float s2 = s * s;
// CHECK-NEXT:   return (abs(x) > 0.5) ? log(1.0 + x) : 2.0 * s * (1.0 + s2 * (0.3333333333333333 + {{.*}}
// CHECK:      o[0] = (((sarek_pow({{.*}}) + sarek_hypot({{.*}})) + sarek_expm1({{.*}})) + sarek_log1p({{.*}}));

// WGSL:      fn sarek_pow(x : f32, y : f32) -> f32 {
// WGSL-NEXT:   let ax = abs(x);
// WGSL:        if (y == 0.0f || x == 1.0f) { return 1.0f; };
// WGSL:        return select(r, -r, x < 0.0f && yodd);
// WGSL:      fn sarek_hypot(x : f32, y : f32) -> f32 {
// WGSL:        return select(m * sqrt(1.0f + r * r), m, m == 0.0f);

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
