// 16-bin histogram: per-block shared counts with atomics, then one global atomic per bin
builtin.module {
  sarek.kernel @histogram(%data : !sarek.vec<i32> "data", %hist : !sarek.vec<i32> "hist", %n : i32 "n") {
    %c16 = sarek.constant 16 : i32
    %local = sarek.alloc_array "counts"[%c16] : !sarek.array<i32, shared>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tid = sarek.let "tid" %t : i32
    %zero = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %small = sarek.binop lt %tid, %c16 : i32
    sarek.if %small {
      %slot = sarek.elem_ref %local[%tid] : !sarek.array<i32, shared>
      sarek.store %slot, %zero : !sarek.ref<i32>
    }
    sarek.barrier
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %stride = sarek.intrinsic "global_size"() : () -> i32
    %i = sarek.let_mut "i" %g : i32
    sarek.while {
      %iv = sarek.load %i : !sarek.ref<i32>
      %c = sarek.binop lt %iv, %n : i32
      sarek.yield %c : i1
    } do {
      %iv = sarek.load %i : !sarek.ref<i32>
      %x = sarek.array_read %data[%iv] : !sarek.vec<i32>
      %bin = sarek.binop rem %x, %c16 : i32
      %old = sarek.intrinsic "atomic_add"(%local, %bin, %one) : (!sarek.array<i32, shared>, i32, i32) -> i32
      %next = sarek.binop add %iv, %stride : i32
      sarek.store %i, %next : !sarek.ref<i32>
    }
    sarek.barrier
    sarek.if %small {
      %cnt = sarek.array_read %local[%tid] : !sarek.array<i32, shared>
      %old2 = sarek.intrinsic "atomic_add"(%hist, %tid, %cnt) : (!sarek.vec<i32>, i32, i32) -> i32
    }
  }
}
