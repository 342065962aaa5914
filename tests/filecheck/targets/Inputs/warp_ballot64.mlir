// warp_ballot64: a u64 of every lane of the warp (a 64-lane AMD wavefront's too).
builtin.module {
  sarek.kernel @ballot64(%x: !sarek.vec<i32> "x", %m: !sarek.vec<ui64> "m") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %v = sarek.array_read %x[%i] : !sarek.vec<i32>
    %z = sarek.constant 0 : i32
    %c = sarek.binop gt %v, %z : i32
    %b = sarek.intrinsic "warp_ballot64"(%c) : (i1) -> ui64
    %rm = sarek.elem_ref %m[%i] : !sarek.vec<ui64>
    sarek.store %rm, %b : !sarek.ref<ui64>
  }
}
