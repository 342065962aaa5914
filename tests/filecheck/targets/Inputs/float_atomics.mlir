// f32 atomics on a vector and a shared array: every op, each result used (targets/<t>/float_atomics.mlir)
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %o : !sarek.vec<f32> "o", %x : f32 "x") {
    %z = sarek.constant 0 : i32
    %c4 = sarek.constant 4 : i32
    %sh = sarek.alloc_array "s"[%c4] : !sarek.array<f32, shared>
    %a = sarek.intrinsic "atomic_add"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
    %s = sarek.intrinsic "atomic_sub"(%sh, %z, %x) : (!sarek.array<f32, shared>, i32, f32) -> f32
    %m = sarek.intrinsic "atomic_min"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
    %n = sarek.intrinsic "atomic_max"(%sh, %z, %x) : (!sarek.array<f32, shared>, i32, f32) -> f32
    %e = sarek.intrinsic "atomic_exch"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
    %e2 = sarek.intrinsic "atomic_exch"(%sh, %z, %x) : (!sarek.array<f32, shared>, i32, f32) -> f32
    %c = sarek.intrinsic "atomic_cas"(%v, %z, %x, %a) : (!sarek.vec<f32>, i32, f32, f32) -> f32
    %c2 = sarek.intrinsic "atomic_cas"(%sh, %z, %x, %a) : (!sarek.array<f32, shared>, i32, f32, f32) -> f32
    %i = sarek.intrinsic "atomic_dec"(%sh, %z) : (!sarek.array<f32, shared>, i32) -> f32
    %r1 = sarek.binop add %a, %s : f32
    %r2 = sarek.binop add %r1, %m : f32
    %r3 = sarek.binop add %r2, %n : f32
    %r4 = sarek.binop add %r3, %e : f32
    %r5 = sarek.binop add %r4, %c : f32
    %r6 = sarek.binop add %r5, %i : f32
    %r7 = sarek.binop add %r6, %e2 : f32
    %r8 = sarek.binop add %r7, %c2 : f32
    %p = sarek.elem_ref %o[%z] : !sarek.vec<f32>
    sarek.store %p, %r8 : !sarek.ref<f32>
  }
}
