// RUN: sarek-opt %s -t glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -t wgsl | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p sarek-lower-wgsl | filecheck %s --check-prefix=IR

// A kernel name is user text; in the `// kernel NAME` comment a line break, a backslash (a line
// continuation) or a non-ASCII line separator is spelled <U+XXXX>, so the rest of the name can never be
// printed as code (it injected `fn bad() {}` into the shader).
builtin.module {
  sarek.kernel @"bad\0Afn bad() {}\0D\5C\E2\80\A8x"(%a : !sarek.vec<f32> "a\0Afn p() {}") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%g] : !sarek.vec<f32>
    %p = sarek.elem_ref %a[%g] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
  }
}
// GLSL:     // kernel bad<U+000A>fn bad() {}<U+000D><U+005C><U+2028>x; workgroup size
// GLSL-NOT: {{^}}fn
// WGSL:     // kernel bad<U+000A>fn bad() {}<U+000D><U+005C><U+2028>x; workgroup size
// WGSL-NOT: {{^}}fn bad
// WGSL-NOT: {{^}}fn p
// IR:       sarek_wgsl.comment "kernel bad<U+000A>fn bad() {}<U+000D><U+005C><U+2028>x; workgroup size
