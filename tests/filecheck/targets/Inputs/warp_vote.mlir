// warp_any / warp_all / warp_ballot: the whole warp (sub-group, SIMD-group) votes on a bool.
builtin.module {
  sarek.kernel @votes(%x: !sarek.vec<i32> "x", %a: !sarek.vec<i32> "a", %m: !sarek.vec<ui32> "m") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %v = sarek.array_read %x[%i] : !sarek.vec<i32>
    %z = sarek.constant 0 : i32
    %c = sarek.binop gt %v, %z : i32
    %any = sarek.intrinsic "warp_any"(%c) : (i1) -> i1
    %all = sarek.intrinsic "warp_all"(%c) : (i1) -> i1
    %both = sarek.binop and %any, %all : i1
    %r = sarek.cast %both : i1 to i32
    %ra = sarek.elem_ref %a[%i] : !sarek.vec<i32>
    sarek.store %ra, %r : !sarek.ref<i32>
    %b = sarek.intrinsic "warp_ballot"(%c) : (i1) -> ui32
    %rm = sarek.elem_ref %m[%i] : !sarek.vec<ui32>
    sarek.store %rm, %b : !sarek.ref<ui32>
  }
}
