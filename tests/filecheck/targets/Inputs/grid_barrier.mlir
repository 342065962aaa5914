// Two phases: every thread writes, the whole grid waits, every thread reads the next block's slot.
builtin.module {
  sarek.kernel @two_phase(%x: !sarek.vec<f32> "x", %y: !sarek.vec<f32> "y") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %f = sarek.cast %i : i32 to f32
    %rx = sarek.elem_ref %x[%i] : !sarek.vec<f32>
    sarek.store %rx, %f : !sarek.ref<f32>
    sarek.grid_barrier
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %one = sarek.constant 1 : i32
    %b1 = sarek.binop add %b, %one : i32
    %g = sarek.intrinsic "grid_dim_x"() : () -> i32
    %nb = sarek.binop rem %b1, %g : i32
    %d = sarek.intrinsic "block_dim_x"() : () -> i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %o = sarek.binop mul %nb, %d : i32
    %j = sarek.binop add %o, %t : i32
    %v = sarek.array_read %x[%j] : !sarek.vec<f32>
    %ry = sarek.elem_ref %y[%i] : !sarek.vec<f32>
    sarek.store %ry, %v : !sarek.ref<f32>
  }
}
