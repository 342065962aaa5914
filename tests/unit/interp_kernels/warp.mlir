// warp shuffles: o[4*t + k] for idx, down, up, xor with a per-thread lane operand d[t]
builtin.module {
  sarek.kernel @shuffles(%v : !sarek.vec<i32> "v", %d : !sarek.vec<i32> "d", %o : !sarek.vec<i32> "o", %lanes : !sarek.vec<i32> "lanes") {
    %t = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %v[%t] : !sarek.vec<i32>
    %dd = sarek.array_read %d[%t] : !sarek.vec<i32>
    %c4 = sarek.constant 4 : i32
    %c1 = sarek.constant 1 : i32
    %j0 = sarek.binop mul %t, %c4 : i32
    %r0 = sarek.intrinsic "warp_shuffle"(%x, %dd) : (i32, i32) -> i32
    %p0 = sarek.elem_ref %o[%j0] : !sarek.vec<i32>
    sarek.store %p0, %r0 : !sarek.ref<i32>
    %j1 = sarek.binop add %j0, %c1 : i32
    %r1 = sarek.intrinsic "warp_shuffle_down"(%x, %dd) : (i32, i32) -> i32
    %p1 = sarek.elem_ref %o[%j1] : !sarek.vec<i32>
    sarek.store %p1, %r1 : !sarek.ref<i32>
    %j2 = sarek.binop add %j1, %c1 : i32
    %r2 = sarek.intrinsic "warp_shuffle_up"(%x, %dd) : (i32, i32) -> i32
    %p2 = sarek.elem_ref %o[%j2] : !sarek.vec<i32>
    sarek.store %p2, %r2 : !sarek.ref<i32>
    %j3 = sarek.binop add %j2, %c1 : i32
    %r3 = sarek.intrinsic "warp_shuffle_xor"(%x, %dd) : (i32, i32) -> i32
    %p3 = sarek.elem_ref %o[%j3] : !sarek.vec<i32>
    sarek.store %p3, %r3 : !sarek.ref<i32>
    sarek.warp_barrier
    %l = sarek.intrinsic "lane_id"() : () -> i32
    %w = sarek.intrinsic "warp_size"() : () -> i32
    %lw = sarek.binop mul %w, %c4 : i32
    %lv = sarek.binop add %l, %lw : i32
    %pl = sarek.elem_ref %lanes[%t] : !sarek.vec<i32>
    sarek.store %pl, %lv : !sarek.ref<i32>
  }
}
