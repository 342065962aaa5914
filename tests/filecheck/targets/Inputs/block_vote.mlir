// barrier_count / barrier_and / barrier_or: the block votes on a bool (each a barrier of the whole block).
builtin.module {
  sarek.kernel @bvotes(%x: !sarek.vec<i32> "x", %a: !sarek.vec<i32> "a") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %v = sarek.array_read %x[%i] : !sarek.vec<i32>
    %z = sarek.constant 0 : i32
    %c = sarek.binop gt %v, %z : i32
    %n = sarek.intrinsic "barrier_count"(%c) : (i1) -> i32
    %all = sarek.intrinsic "barrier_and"(%c) : (i1) -> i1
    %any = sarek.intrinsic "barrier_or"(%c) : (i1) -> i1
    %both = sarek.binop and %all, %any : i1
    %r = sarek.cast %both : i1 to i32
    %s = sarek.binop add %r, %n : i32
    %ra = sarek.elem_ref %a[%i] : !sarek.vec<i32>
    sarek.store %ra, %s : !sarek.ref<i32>
  }
}
