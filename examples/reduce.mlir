// per-block sum of a[0..n) into out[blockIdx] with a 256-slot shared tree
builtin.module {
  sarek.kernel @reduce_sum(%a : !sarek.vec<f32> "a", %out : !sarek.vec<f32> "out", %n : i32 "n") {
    %c256 = sarek.constant 256 : i32
    %sdata = sarek.alloc_array "sdata"[%c256] : !sarek.array<f32, shared>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tid = sarek.let "tid" %t : i32
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %gid = sarek.let "gid" %g : i32
    %inb = sarek.binop lt %gid, %n : i32
    %v = sarek.if_expr %inb -> f32 {
      %x = sarek.array_read %a[%gid] : !sarek.vec<f32>
      sarek.yield %x : f32
    } else {
      %z = sarek.constant 0.0 : f32
      sarek.yield %z : f32
    }
    %slot = sarek.elem_ref %sdata[%tid] : !sarek.array<f32, shared>
    sarek.store %slot, %v : !sarek.ref<f32>
    sarek.barrier
    %c128 = sarek.constant 128 : i32
    %s = sarek.let_mut "s" %c128 : i32
    sarek.while {
      %sv = sarek.load %s : !sarek.ref<i32>
      %zero = sarek.constant 0 : i32
      %c = sarek.binop gt %sv, %zero : i32
      sarek.yield %c : i1
    } do {
      %sv = sarek.load %s : !sarek.ref<i32>
      %act = sarek.binop lt %tid, %sv : i32
      sarek.if %act {
        %j = sarek.binop add %tid, %sv : i32
        %o = sarek.array_read %sdata[%j] : !sarek.array<f32, shared>
        %m = sarek.array_read %sdata[%tid] : !sarek.array<f32, shared>
        %sum = sarek.binop add %m, %o : f32
        %dst = sarek.elem_ref %sdata[%tid] : !sarek.array<f32, shared>
        sarek.store %dst, %sum : !sarek.ref<f32>
      }
      sarek.barrier
      %one = sarek.constant 1 : i32
      %half = sarek.binop shr %sv, %one : i32
      sarek.store %s, %half : !sarek.ref<i32>
    }
    %zero = sarek.constant 0 : i32
    %first = sarek.binop eq %tid, %zero : i32
    sarek.if %first {
      %b = sarek.intrinsic "block_idx_x"() : () -> i32
      %r = sarek.array_read %sdata[%zero] : !sarek.array<f32, shared>
      %o = sarek.elem_ref %out[%b] : !sarek.vec<f32>
      sarek.store %o, %r : !sarek.ref<f32>
    }
  }
}
