// sum of x: each warp reduces its values with shuffle_down, lane 0 adds the warp's sum to total[0]
builtin.module {
  sarek.kernel @warp_sum(%x : !sarek.vec<i32> "x", %total : !sarek.vec<i32> "total", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %inb = sarek.binop lt %i, %n : i32
    %v0 = sarek.if_expr %inb -> i32 {
      %xi = sarek.array_read %x[%i] : !sarek.vec<i32>
      sarek.yield %xi : i32
    } else {
      %z = sarek.constant 0 : i32
      sarek.yield %z : i32
    }
    %v = sarek.let_mut "v" %v0 : i32
    %w = sarek.intrinsic "warp_size"() : () -> i32
    %one = sarek.constant 1 : i32
    %half = sarek.binop shr %w, %one : i32
    %off = sarek.let_mut "offset" %half : i32
    sarek.while {
      %o = sarek.load %off : !sarek.ref<i32>
      %zero = sarek.constant 0 : i32
      %c = sarek.binop gt %o, %zero : i32
      sarek.yield %c : i1
    } do {
      %o = sarek.load %off : !sarek.ref<i32>
      %cur = sarek.load %v : !sarek.ref<i32>
      %other = sarek.intrinsic "warp_shuffle_down"(%cur, %o) : (i32, i32) -> i32
      %s = sarek.binop add %cur, %other : i32
      sarek.store %v, %s : !sarek.ref<i32>
      %h = sarek.binop shr %o, %one : i32
      sarek.store %off, %h : !sarek.ref<i32>
    }
    %lane = sarek.intrinsic "lane_id"() : () -> i32
    %zero = sarek.constant 0 : i32
    %first = sarek.binop eq %lane, %zero : i32
    sarek.if %first {
      %sum = sarek.load %v : !sarek.ref<i32>
      %old = sarek.intrinsic "atomic_add"(%total, %zero, %sum) : (!sarek.vec<i32>, i32, i32) -> i32
    }
  }
}
