// atomics (old values unused; totals exact), warp shuffles (all four kinds), lane_id, warp_size, mem fence
builtin.module {
  sarek.kernel @atomics_warp(%a : !sarek.vec<i32> "a", %hist : !sarek.vec<i32> "hist", %fsum : !sarek.vec<f32> "fsum", %sh : !sarek.vec<i32> "sh", %shf : !sarek.vec<f64> "shf", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%g] : !sarek.vec<i32>
    %c8 = sarek.constant 8 : i32
    %bin = sarek.binop rem %x, %c8 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%hist, %bin, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %c9 = sarek.constant 9 : i32
    %o2 = sarek.intrinsic "atomic_max"(%hist, %c9, %x) : (!sarek.vec<i32>, i32, i32) -> i32
    %c10 = sarek.constant 10 : i32
    %o3 = sarek.intrinsic "atomic_or"(%hist, %c10, %x) : (!sarek.vec<i32>, i32, i32) -> i32
    %c11 = sarek.constant 11 : i32
    %o4 = sarek.intrinsic "atomic_inc"(%hist, %c11) : (!sarek.vec<i32>, i32) -> i32
    %c12 = sarek.constant 12 : i32
    %o5 = sarek.intrinsic "atomic_sub"(%hist, %c12, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %xf = sarek.cast %x : i32 to f32
    %zero = sarek.constant 0 : i32
    %o6 = sarek.intrinsic "atomic_add"(%fsum, %zero, %xf) : (!sarek.vec<f32>, i32, f32) -> f32
    sarek.mem_fence
    %l = sarek.intrinsic "lane_id"() : () -> i32
    %w = sarek.intrinsic "warp_size"() : () -> i32
    %d = sarek.intrinsic "warp_shuffle_down"(%x, %one) : (i32, i32) -> i32
    %u = sarek.intrinsic "warp_shuffle_up"(%x, %c8) : (i32, i32) -> i32
    %xr = sarek.intrinsic "warp_shuffle_xor"(%x, %c11) : (i32, i32) -> i32
    %ix = sarek.intrinsic "warp_shuffle"(%x, %c9) : (i32, i32) -> i32
    %s1 = sarek.binop add %d, %u : i32
    %c1000 = sarek.constant 1000 : i32
    %s2 = sarek.binop mul %s1, %c1000 : i32
    %s3 = sarek.binop add %s2, %xr : i32
    %s4 = sarek.binop mul %s3, %c8 : i32
    %s5 = sarek.binop add %s4, %ix : i32
    %lw = sarek.binop mul %l, %w : i32
    %s6 = sarek.binop add %s5, %lw : i32
    %p = sarek.elem_ref %sh[%g] : !sarek.vec<i32>
    sarek.store %p, %s6 : !sarek.ref<i32>
    %xd = sarek.cast %x : i32 to f64
    %half = sarek.constant 0.5 : f64
    %xh = sarek.binop mul %xd, %half : f64
    %m3 = sarek.constant -3 : i32
    %dd = sarek.intrinsic "warp_shuffle_down"(%xh, %m3) : (f64, i32) -> f64
    %pd = sarek.elem_ref %shf[%g] : !sarek.vec<f64>
    sarek.store %pd, %dd : !sarek.ref<f64>
  }
}
