// per-subgroup sums with warp_shuffle_down; lane 0 writes out[g / warp_size]; ws[0] = warp_size
builtin.module {
  sarek.kernel @warp_sum(%x : !sarek.vec<f32> "x", %out : !sarek.vec<f32> "out", %ws : !sarek.vec<i32> "ws") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %v0 = sarek.array_read %x[%g] : !sarek.vec<f32>
    %v = sarek.let_mut "v" %v0 : f32
    %w = sarek.intrinsic "warp_size"() : () -> i32
    %one = sarek.constant 1 : i32
    %h = sarek.binop shr %w, %one : i32
    %off = sarek.let_mut "off" %h : i32
    sarek.while {
      %o = sarek.load %off : !sarek.ref<i32>
      %z = sarek.constant 0 : i32
      %c = sarek.binop gt %o, %z : i32
      sarek.yield %c : i1
    } do {
      %o = sarek.load %off : !sarek.ref<i32>
      %cur = sarek.load %v : !sarek.ref<f32>
      %other = sarek.intrinsic "warp_shuffle_down"(%cur, %o) : (f32, i32) -> f32
      %s = sarek.binop add %cur, %other : f32
      sarek.store %v, %s : !sarek.ref<f32>
      %o2 = sarek.binop shr %o, %one : i32
      sarek.store %off, %o2 : !sarek.ref<i32>
    }
    %lane = sarek.intrinsic "lane_id"() : () -> i32
    %z = sarek.constant 0 : i32
    %first = sarek.binop eq %lane, %z : i32
    sarek.if %first {
      %wi = sarek.binop div %g, %w : i32
      %p = sarek.elem_ref %out[%wi] : !sarek.vec<f32>
      %fin = sarek.load %v : !sarek.ref<f32>
      sarek.store %p, %fin : !sarek.ref<f32>
    }
    %g0 = sarek.binop eq %g, %z : i32
    sarek.if %g0 {
      %p = sarek.elem_ref %ws[%z] : !sarek.vec<i32>
      sarek.store %p, %w : !sarek.ref<i32>
    }
  }
}
