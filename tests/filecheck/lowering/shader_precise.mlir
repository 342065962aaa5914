// RUN: sarek-opt %s -p 'sarek-lower-glsl' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-lower-wgsl' | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -t glsl | filecheck %s --check-prefix=TEXT

// A value marked `sarek.precise` (sarek-expand-math marks the math library's error-free steps on GLSL) gets a
// `precise` local even when it has one use: glslang then decorates every operation computing it NoContraction,
// so the driver neither fuses nor reassociates them. An unmarked single-use sum stays inline. WGSL has no
// such qualifier (its math library is fenced instead): the value is lowered as any other.
builtin.module {
  sarek.kernel @k(%a : f32 "a", %b : f32 "b", %o : !sarek.vec<f32> "o") {
    %s = sarek.binop add %a, %b : f32 attributes {sarek.precise}
    %d = sarek.binop sub %s, %a : f32 attributes {sarek.precise}
    %m = sarek.binop mul %d, %b : f32
    %n = sarek.binop add %m, %a : f32
    %c0 = sarek.constant 0 : i32
    %r = sarek.elem_ref %o[%c0] : !sarek.vec<f32>
    sarek.store %r, %n : !sarek.ref<f32>
  }
}
// CHECK:      sarek_glsl.func "void main()" {
// CHECK-NEXT:   sarek_glsl.stmt "precise float sarek_t = (a_ + b_)"
// CHECK-NEXT:   sarek_glsl.stmt "precise float sarek_t1 = (sarek_t - a_)"
// CHECK-NEXT:   sarek_glsl.stmt "o[0] = ((sarek_t1 * b_) + a_)"

// WGSL:       fn main(
// WGSL-NOT:   precise
// WGSL:         o[0i] = ((((params.a + params.b) - params.a) * params.b) + params.a)

// TEXT:       void main() {
// TEXT-NEXT:  precise float sarek_t = (a_ + b_);
// TEXT-NEXT:  precise float sarek_t1 = (sarek_t - a_);
// TEXT-NEXT:  o[0] = ((sarek_t1 * b_) + a_);
