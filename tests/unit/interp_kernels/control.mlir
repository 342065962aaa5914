// divergent control flow: private arrays, a while loop with per-thread trip counts, a helper returning early
// from inside a loop, if_expr guarding a division and an out-of-range read, non-uniform for bounds, and two
// barriers in a row reached by every thread
builtin.module {
  sarek.helper @first_multiple(%k : i32 "k", %lim : i32 "lim") -> i32 {
    %c1 = sarek.constant 1 : i32
    %c7 = sarek.constant 7 : i32
    %c0 = sarek.constant 0 : i32
    %neg = sarek.binop lt %k, %c0 : i32
    sarek.if %neg {
      %m1 = sarek.constant -1 : i32
      sarek.return %m1 : i32
    }
    sarek.for "j" %j = %c1 to %lim step 1 : i32 {
      %p = sarek.binop mul %j, %k : i32
      %r = sarek.binop rem %p, %c7 : i32
      %z = sarek.binop eq %r, %c0 : i32
      sarek.if %z {
        sarek.return %j : i32
      }
    }
    sarek.return %c0 : i32
  }
  sarek.kernel @control(%x : !sarek.vec<i32> "x", %o : !sarek.vec<i32> "o", %n : i32 "n") {
    %t = sarek.intrinsic "global_thread_id"() : () -> i32
    %tid = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c8 = sarek.constant 8 : i32
    %c0 = sarek.constant 0 : i32
    %c1 = sarek.constant 1 : i32
    %c5 = sarek.constant 5 : i32
    %priv = sarek.alloc_array "priv"[%c8] : !sarek.array<i32, local>
    %sh = sarek.alloc_array "sh"[%c8] : !sarek.array<i32, shared>
    sarek.for "k" %k = %c0 to %c8 step 1 : i32 {
      %kt = sarek.binop mul %k, %t : i32
      %pk = sarek.elem_ref %priv[%k] : !sarek.array<i32, local>
      sarek.store %pk, %kt : !sarek.ref<i32>
    }
    %trip = sarek.binop rem %t, %c5 : i32
    %acc = sarek.let_mut "acc" %c0 : i32
    %i = sarek.let_mut "i" %c0 : i32
    sarek.while {
      %iv = sarek.load %i : !sarek.ref<i32>
      %go = sarek.binop lt %iv, %trip : i32
      sarek.yield %go : i1
    } do {
      %iv = sarek.load %i : !sarek.ref<i32>
      %pv = sarek.array_read %priv[%iv] : !sarek.array<i32, local>
      %a = sarek.load %acc : !sarek.ref<i32>
      %a2 = sarek.binop add %a, %pv : i32
      sarek.store %acc, %a2 : !sarek.ref<i32>
      %i2 = sarek.binop add %iv, %c1 : i32
      sarek.store %i, %i2 : !sarek.ref<i32>
    }
    %in = sarek.binop lt %t, %n : i32
    %xv = sarek.if_expr %in -> i32 {
      %r = sarek.array_read %x[%t] : !sarek.vec<i32>
      sarek.yield %r : i32
    } else {
      sarek.yield %c0 : i32
    }
    %nz = sarek.binop ne %xv, %c0 : i32
    %q = sarek.if_expr %nz -> i32 {
      %c1000 = sarek.constant 1000 : i32
      %d = sarek.binop div %c1000, %xv : i32
      sarek.yield %d : i32
    } else {
      %m = sarek.constant -7 : i32
      sarek.yield %m : i32
    }
    %fm = sarek.call @first_multiple(%xv, %c8) : (i32, i32) -> i32
    %cnt = sarek.let_mut "cnt" %c0 : i32
    %tr = sarek.binop rem %tid, %c8 : i32
    sarek.for "u" %u = %tr to %c8 step 1 : i32 {
      %cv = sarek.load %cnt : !sarek.ref<i32>
      %cu = sarek.binop add %cv, %u : i32
      sarek.store %cnt, %cu : !sarek.ref<i32>
    }
    %slot = sarek.binop rem %tid, %c8 : i32
    %ps = sarek.elem_ref %sh[%slot] : !sarek.array<i32, shared>
    sarek.store %ps, %tid : !sarek.ref<i32>
    sarek.barrier
    sarek.barrier
    %s7 = sarek.binop sub %c8, %c1 : i32
    %other = sarek.binop sub %s7, %slot : i32
    %sv = sarek.array_read %sh[%other] : !sarek.array<i32, shared>
    sarek.barrier
    %c6 = sarek.constant 6 : i32
    %base = sarek.binop mul %t, %c6 : i32
    %a = sarek.load %acc : !sarek.ref<i32>
    %p0 = sarek.elem_ref %o[%base] : !sarek.vec<i32>
    sarek.store %p0, %a : !sarek.ref<i32>
    %b1 = sarek.binop add %base, %c1 : i32
    %p1 = sarek.elem_ref %o[%b1] : !sarek.vec<i32>
    sarek.store %p1, %q : !sarek.ref<i32>
    %b2 = sarek.binop add %b1, %c1 : i32
    %p2 = sarek.elem_ref %o[%b2] : !sarek.vec<i32>
    sarek.store %p2, %fm : !sarek.ref<i32>
    %b3 = sarek.binop add %b2, %c1 : i32
    %p3 = sarek.elem_ref %o[%b3] : !sarek.vec<i32>
    %cf = sarek.load %cnt : !sarek.ref<i32>
    sarek.store %p3, %cf : !sarek.ref<i32>
    %b4 = sarek.binop add %b3, %c1 : i32
    %p4 = sarek.elem_ref %o[%b4] : !sarek.vec<i32>
    sarek.store %p4, %sv : !sarek.ref<i32>
    %b5 = sarek.binop add %b4, %c1 : i32
    %p5 = sarek.elem_ref %o[%b5] : !sarek.vec<i32>
    sarek.store %p5, %xv : !sarek.ref<i32>
  }
}
