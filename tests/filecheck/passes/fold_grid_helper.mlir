// RUN: sarek-opt %s -p 'sarek-fold-grid{kernel=k}' --verify-diagnostics | filecheck %s

// A helper reading a grid-dependent index cannot see the dispatch offsets: refused at the intrinsic.
builtin.module {
  sarek.helper @where() -> i32 {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32 loc("where.py":6:10)
    sarek.return %g : i32
  }
  sarek.kernel @k(%v : !sarek.vec<i32> "v") {
    %i = sarek.call @where() : () -> i32
    %p = sarek.elem_ref %v[%i] : !sarek.vec<i32>
    sarek.store %p, %i : !sarek.ref<i32>
  }
}

// CHECK: where.py:6:10: error: helper 'where' reads 'global_thread_id': a grid this large is launched as several dispatches and helpers cannot see the offsets; read it in the kernel and pass it to the helper
