// RUN: sarek-opt %s -t glsl | filecheck %s

// A buffer that only atomic_add/sub/inc/dec touch stays a float buffer and uses GL_EXT_shader_atomic_float's
// atomicAdd (OpAtomicFAddEXT, which wgpu's SPIR-V reader reads; device feature shader-float32-atomic): sub adds
// the negation, inc/dec add one. A buffer also given min (here `m`) keeps its bits and the compare-and-swap loop;
// so do shared arrays (wgpu has no float atomics on workgroup memory).
sarek.kernel @k(%v : !sarek.vec<f32> "v", %m : !sarek.vec<f32> "m", %o : !sarek.vec<f32> "o", %x : f32 "x") {
  %z = sarek.constant 0 : i32
  %a = sarek.intrinsic "atomic_add"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %s = sarek.intrinsic "atomic_sub"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %i = sarek.intrinsic "atomic_inc"(%v, %z) : (!sarek.vec<f32>, i32) -> f32
  %d = sarek.intrinsic "atomic_dec"(%v, %z) : (!sarek.vec<f32>, i32) -> f32
  %b = sarek.intrinsic "atomic_add"(%m, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %n = sarek.intrinsic "atomic_min"(%m, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %r1 = sarek.binop add %a, %s : f32
  %r2 = sarek.binop add %r1, %i : f32
  %r3 = sarek.binop add %r2, %d : f32
  %r4 = sarek.binop add %r3, %b : f32
  %r5 = sarek.binop add %r4, %n : f32
  %p = sarek.elem_ref %o[%z] : !sarek.vec<f32>
  sarek.store %p, %r5 : !sarek.ref<f32>
}
// CHECK:      #extension GL_EXT_shader_atomic_float : require
// CHECK:      buffer Buffer_v { float v[]; };
// CHECK-NEXT: buffer Buffer_m { uint m[]; };
// CHECK:      float {{.*}} = atomicAdd(v[0], x_);
// CHECK-NEXT: {{.*}} = atomicAdd(v[0], (-x_));
// CHECK-NEXT: {{.*}} = atomicAdd(v[0], 1.0);
// CHECK-NEXT: {{.*}} = atomicAdd(v[0], -1.0);
// CHECK:      atomicCompSwap(m[0], {{.*}}, floatBitsToUint(sarek_cur + x_))
// CHECK:      atomicCompSwap(m[0], {{.*}}, floatBitsToUint((x_ < sarek_cur && ((floatBitsToUint(x_) & 0x7fffffffu) <= 0x7f800000u) && ((floatBitsToUint(sarek_cur) & 0x7fffffffu) <= 0x7f800000u) ? x_ : sarek_cur)))
