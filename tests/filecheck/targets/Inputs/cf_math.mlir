// math intrinsics on f32 and i32, atomics on a vector
builtin.module {
  sarek.kernel @math(%x : !sarek.vec<f32> "x", %k : !sarek.vec<i32> "k", %acc : !sarek.vec<i32> "acc") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %v = sarek.array_read %x[%i] : !sarek.vec<f32>
    %a = sarek.intrinsic "sqrt"(%v) : (f32) -> f32
    %b = sarek.intrinsic "fma"(%a, %v, %v) : (f32, f32, f32) -> f32
    %c = sarek.intrinsic "min"(%b, %v) : (f32, f32) -> f32
    %d = sarek.intrinsic "pow"(%c, %a) : (f32, f32) -> f32
    %e = sarek.intrinsic "fabs"(%d) : (f32) -> f32
    %px = sarek.elem_ref %x[%i] : !sarek.vec<f32>
    sarek.store %px, %e : !sarek.ref<f32>
    %n = sarek.array_read %k[%i] : !sarek.vec<i32>
    %an = sarek.intrinsic "abs"(%n) : (i32) -> i32
    %mx = sarek.intrinsic "max"(%an, %i) : (i32, i32) -> i32
    %cz = sarek.intrinsic "clz"(%mx) : (i32) -> i32
    %pc = sarek.intrinsic "popcount"(%cz) : (i32) -> i32
    %pk = sarek.elem_ref %k[%i] : !sarek.vec<i32>
    sarek.store %pk, %pc : !sarek.ref<i32>
    %zero = sarek.constant 0 : i32
    %o1 = sarek.intrinsic "atomic_max"(%acc, %zero, %pc) : (!sarek.vec<i32>, i32, i32) -> i32
    %o2 = sarek.intrinsic "atomic_inc"(%acc, %i) : (!sarek.vec<i32>, i32) -> i32
    %o3 = sarek.intrinsic "atomic_cas"(%acc, %zero, %o1, %o2) : (!sarek.vec<i32>, i32, i32, i32) -> i32
  }
}
