// sarek.math.bit_reverse on i32 and i64 (the WGSL RUN line keeps only the i32 kernel)
builtin.module {
  sarek.kernel @brev32(%a : !sarek.vec<i32> "a") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%i] : !sarek.vec<i32>
    %r = sarek.intrinsic "bit_reverse"(%x) : (i32) -> i32
    %p = sarek.elem_ref %a[%i] : !sarek.vec<i32>
    sarek.store %p, %r : !sarek.ref<i32>
  }
  sarek.kernel @brev64(%b : !sarek.vec<i64> "b") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %y = sarek.array_read %b[%i] : !sarek.vec<i64>
    %s = sarek.intrinsic "bit_reverse"(%y) : (i64) -> i64
    %q = sarek.elem_ref %b[%i] : !sarek.vec<i64>
    sarek.store %q, %s : !sarek.ref<i64>
  }
}
