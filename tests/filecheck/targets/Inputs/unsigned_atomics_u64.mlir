// u64 atomics on a vector: native on CUDA, HIP, OpenCL (cl_khr_int64_*_atomics) and PTX; min/max unsigned.
builtin.module {
  sarek.kernel @ua64(%w: !sarek.vec<ui64> "w") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %u = sarek.cast %i : i32 to ui64
    %a = sarek.intrinsic "atomic_min"(%w, %c0, %u) : (!sarek.vec<ui64>, i32, ui64) -> ui64 loc("u.py":7:5)
    %c1 = sarek.constant 1 : i32
    %two = sarek.constant 2 : ui64
    %b = sarek.intrinsic "atomic_sub"(%w, %c1, %two) : (!sarek.vec<ui64>, i32, ui64) -> ui64
    %c2 = sarek.constant 2 : i32
    %c = sarek.intrinsic "atomic_or"(%w, %c2, %u) : (!sarek.vec<ui64>, i32, ui64) -> ui64
    %d = sarek.intrinsic "atomic_dec"(%w, %c2) : (!sarek.vec<ui64>, i32) -> ui64
  }
}
