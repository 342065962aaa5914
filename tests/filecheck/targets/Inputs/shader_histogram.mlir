// 64-bin histogram: shared bins with atomics, barriers, a global atomic merge
builtin.module {
  sarek.kernel @histogram(%data : !sarek.vec<i32> "data", %hist : !sarek.vec<i32> "hist", %n : i32 "n") {
    %c64 = sarek.constant 64 : i32
    %bins = sarek.alloc_array "bins"[%c64] : !sarek.array<i32, shared>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tid = sarek.let "tid" %t : i32
    %inb = sarek.binop lt %tid, %c64 : i32
    sarek.if %inb {
      %z = sarek.constant 0 : i32
      %p = sarek.elem_ref %bins[%tid] : !sarek.array<i32, shared>
      sarek.store %p, %z : !sarek.ref<i32>
    }
    sarek.barrier
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %d = sarek.array_read %data[%g] : !sarek.vec<i32>
      %c63 = sarek.constant 63 : i32
      %bin = sarek.binop bitand %d, %c63 : i32
      %one = sarek.constant 1 : i32
      %old = sarek.intrinsic "atomic_add"(%bins, %bin, %one) : (!sarek.array<i32, shared>, i32, i32) -> i32
    }
    sarek.barrier
    sarek.if %inb {
      %bv = sarek.array_read %bins[%tid] : !sarek.array<i32, shared>
      %o3 = sarek.intrinsic "atomic_add"(%hist, %tid, %bv) : (!sarek.vec<i32>, i32, i32) -> i32
    }
  }
}
