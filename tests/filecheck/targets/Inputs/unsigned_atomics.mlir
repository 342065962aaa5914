// u32 atomics on a vector and a shared array (every target), and u64 atomics on a vector (the targets with
// 64-bit atomics: CUDA, HIP, OpenCL, PTX; GLSL, WGSL and Metal refuse them: tests/filecheck/passes).
builtin.module {
  sarek.kernel @ua(%h: !sarek.vec<ui32> "h", %old: !sarek.vec<ui32> "old") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %c4 = sarek.constant 4 : i32
    %s = sarek.alloc_array "s"[%c4] : !sarek.array<ui32, shared>
    %slot = sarek.binop rem %i, %c4 : i32
    %one = sarek.constant 1 : ui32
    %o = sarek.intrinsic "atomic_add"(%h, %slot, %one) : (!sarek.vec<ui32>, i32, ui32) -> ui32
    %r = sarek.elem_ref %old[%i] : !sarek.vec<ui32>
    sarek.store %r, %o : !sarek.ref<ui32>
    %three = sarek.constant 3 : ui32
    %a = sarek.intrinsic "atomic_sub"(%h, %c4, %three) : (!sarek.vec<ui32>, i32, ui32) -> ui32
    %c5 = sarek.constant 5 : i32
    %u = sarek.cast %i : i32 to ui32
    %b = sarek.intrinsic "atomic_max"(%h, %c5, %u) : (!sarek.vec<ui32>, i32, ui32) -> ui32
    %c0 = sarek.constant 0 : i32
    %c = sarek.intrinsic "atomic_inc"(%s, %c0) : (!sarek.array<ui32, shared>, i32) -> ui32
    %d = sarek.intrinsic "atomic_dec"(%h, %c0) : (!sarek.vec<ui32>, i32) -> ui32
    %c6 = sarek.constant 6 : i32
    %z = sarek.constant 0 : ui32
    %e = sarek.intrinsic "atomic_cas"(%h, %c6, %z, %u) : (!sarek.vec<ui32>, i32, ui32, ui32) -> ui32
  }
}
