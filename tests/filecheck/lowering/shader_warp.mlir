// RUN: sarek-opt %s -p 'sarek-lower-warp{target=glsl},sarek-lower-glsl' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-lower-warp{target=wgsl},sarek-lower-wgsl' | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-lower-wgsl' --verify-diagnostics | filecheck %s --check-prefix=BAD

// GLSL and WGSL take the lane guard from sarek-lower-warp's helper and lower only its in-range shuffle:
// subgroupShuffle with the (guarded, signed) lane converted to unsigned. A shuffle the pass has not seen is
// refused.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %x = sarek.array_read %v[%t] : !sarek.vec<f32>
    %one = sarek.constant 1 : i32
    %y = sarek.intrinsic "warp_shuffle_xor"(%x, %one) : (f32, i32) -> f32 loc("w.py":3:7)
    %p = sarek.elem_ref %v[%t] : !sarek.vec<f32>
    sarek.store %p, %y : !sarek.ref<f32>
  }
}
// CHECK:      sarek_glsl.func "float sarek_warp_shuffle_xor_f32(float v_1, int x)" {
// CHECK-NEXT:   sarek_glsl.stmt "int lane = int(gl_SubgroupInvocationID)"
// CHECK-NEXT:   sarek_glsl.stmt "int width = int(gl_SubgroupSize)"
// CHECK-NEXT:   sarek_glsl.stmt "int mixed = (lane ^ x)"
// CHECK-NEXT:   sarek_glsl.stmt "int src = (((mixed >= 0) && (mixed < width)) ? mixed : lane)"
// CHECK-NEXT:   sarek_glsl.stmt "float sarek_t = subgroupShuffle(v_1, uint(src))"
// CHECK:      sarek_glsl.func "void main()" {
// CHECK:        sarek_warp_shuffle_xor_f32(v[int(gl_LocalInvocationID.x)], 1)

// WGSL:       let src : i32 = select(lane, mixed, ((mixed >= 0i) && (mixed < width)))
// WGSL-NEXT:  let sarek_t : f32 = subgroupShuffle(v_1, u32(src))

// BAD: w.py:3:7: error: {{WGSL}}: 'warp_shuffle_xor' must be lowered by sarek-lower-warp before the wgsl lowering
