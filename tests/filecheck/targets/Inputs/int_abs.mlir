// Integer abs after a warp shuffle (fuzz seed 202272's shape): the input of targets/ptx/int_abs.mlir.
builtin.module {
  sarek.kernel @absmod(%acc : !sarek.vec<i32> "acc", %l : !sarek.vec<i64> "l") {
    %v = sarek.constant -100 : i32
    %m = sarek.constant 1 : i32
    %s = sarek.intrinsic "warp_shuffle_xor"(%v, %m) : (i32, i32) -> i32
    %a = sarek.intrinsic "abs"(%s) : (i32) -> i32
    %two = sarek.constant 2 : i32
    %r = sarek.binop rem %a, %two : i32
    %p = sarek.elem_ref %acc[%r] : !sarek.vec<i32>
    sarek.store %p, %a : !sarek.ref<i32>
    %z = sarek.constant 0 : i32
    %w = sarek.array_read %l[%z] : !sarek.vec<i64>
    %b = sarek.intrinsic "abs"(%w) : (i64) -> i64
    %q = sarek.elem_ref %l[%z] : !sarek.vec<i64>
    sarek.store %q, %b : !sarek.ref<i64>
  }
}
