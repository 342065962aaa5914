// N-dimensional arrays: a rank-2 and a rank-3 vector (shapes passed as hidden parameters), array_dim,
// a (4, 5) shared and a (2, 3) local array (constant extents), a helper taking a rank-2 vector
builtin.module {
  sarek.helper @at(%m : !sarek.vec<f32, 2> "m", %i : i32 "i", %j : i32 "j") -> f32 {
    %x = sarek.array_read %m[%i, %j] : !sarek.vec<f32, 2>
    sarek.return %x : f32
  }
  sarek.kernel @nd(%a : !sarek.vec<f32, 2> "a", %u : !sarek.vec<f32, 3> "u", %o : !sarek.vec<f32> "o") {
    %i = sarek.intrinsic "thread_idx_y"() : () -> i32
    %j = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c2 = sarek.constant 2 : i32
    %c3 = sarek.constant 3 : i32
    %c4 = sarek.constant 4 : i32
    %c5 = sarek.constant 5 : i32
    %t = sarek.alloc_array "t"[%c4, %c5] : !sarek.array<f32, shared, 2>
    %l = sarek.alloc_array "l"[%c2, %c3] : !sarek.array<f32, local, 2>
    %x = sarek.call @at(%a, %i, %j) : (!sarek.vec<f32, 2>, i32, i32) -> f32
    %pt = sarek.elem_ref %t[%i, %j] : !sarek.array<f32, shared, 2>
    sarek.store %pt, %x : !sarek.ref<f32>
    sarek.barrier
    %y = sarek.array_read %t[%j, %i] : !sarek.array<f32, shared, 2>
    %pl = sarek.elem_ref %l[%c2, %j] : !sarek.array<f32, local, 2>
    sarek.store %pl, %y : !sarek.ref<f32>
    %w = sarek.array_read %l[%c2, %j] : !sarek.array<f32, local, 2>
    %d1 = sarek.array_dim %u, 1 : !sarek.vec<f32, 3>
    %v = sarek.array_read %u[%i, %d1, %j] : !sarek.vec<f32, 3>
    %s = sarek.binop add %w, %v : f32
    %n = sarek.array_len %o : !sarek.vec<f32>
    %po = sarek.elem_ref %o[%n] : !sarek.vec<f32>
    sarek.store %po, %s : !sarek.ref<f32>
  }
}
