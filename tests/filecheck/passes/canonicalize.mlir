// RUN: sarek-opt %s -p sarek-canonicalize --split-input-file | filecheck %s

// Folding with the interpreter's semantics: i32 wraps, div truncates (INT_MIN / -1 wraps to INT_MIN,
// INT_MIN % -1 is 0), f32 rounds to f32; a shift by the width and a non-finite result stay as written (a
// division by the constant 0 does not verify: tests/filecheck/dialect/invalid_expressions.mlir).
builtin.module {
  sarek.kernel @fold(%o : !sarek.vec<i32> "o", %f : !sarek.vec<f32> "f") {
    %big = sarek.constant 2147483647 : i32
    %one = sarek.constant 1 : i32
    %m7 = sarek.constant -7 : i32
    %two = sarek.constant 2 : i32
    %z = sarek.constant 0 : i32
    %w = sarek.constant 32 : i32
    %wrap = sarek.binop add %big, %one : i32
    %q = sarek.binop div %m7, %two : i32
    %r = sarek.binop rem %m7, %two : i32
    %min = sarek.constant -2147483648 : i32
    %m1 = sarek.constant -1 : i32
    %ov = sarek.binop div %min, %m1 : i32
    %ovr = sarek.binop rem %min, %m1 : i32
    %sh = sarek.binop shl %one, %w : i32
    %t = sarek.constant 0.1 : f32
    %s = sarek.binop add %t, %t : f32
    %h = sarek.constant 3.0e38 : f32
    %inf = sarek.binop mul %h, %h : f32
    %c = sarek.cast %q : i32 to f32
    %e0 = sarek.elem_ref %o[%z] : !sarek.vec<i32>
    sarek.store %e0, %wrap : !sarek.ref<i32>
    sarek.store %e0, %q : !sarek.ref<i32>
    sarek.store %e0, %r : !sarek.ref<i32>
    sarek.store %e0, %ov : !sarek.ref<i32>
    sarek.store %e0, %ovr : !sarek.ref<i32>
    sarek.store %e0, %sh : !sarek.ref<i32>
    %e1 = sarek.elem_ref %f[%z] : !sarek.vec<f32>
    sarek.store %e1, %s : !sarek.ref<f32>
    sarek.store %e1, %inf : !sarek.ref<f32>
    sarek.store %e1, %c : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @fold
// CHECK-DAG:   %{{.*}} = sarek.constant -2147483648 : i32
// CHECK-DAG:   %{{.*}} = sarek.constant -3 : i32
// CHECK-DAG:   %ov = sarek.constant -2147483648 : i32
// CHECK-DAG:   %ovr = sarek.constant 0 : i32
// CHECK-DAG:   %{{.*}} = sarek.constant -1 : i32
// CHECK-DAG:   sarek.binop shl %{{.*}}, %{{.*}} : i32
// CHECK-DAG:   %{{.*}} = sarek.constant 0.2 : f32
// CHECK-DAG:   sarek.binop mul %{{.*}}, %{{.*}} : f32
// CHECK-DAG:   %{{.*}} = sarek.constant -3.0 : f32

// -----

// Identities: exact ones only. x+0.0 stays (it turns -0.0 into +0.0); x-0.0, x*1.0, x/1.0 go; x*-1.0 is -x.
builtin.module {
  sarek.kernel @ident(%f : !sarek.vec<f32> "f", %o : !sarek.vec<i32> "o", %x : f32 "x", %i : i32 "i") {
    %z = sarek.constant 0.0 : f32
    %nz = sarek.constant -0.0 : f32
    %one = sarek.constant 1.0 : f32
    %m1 = sarek.constant -1.0 : f32
    %a = sarek.binop add %x, %z : f32
    %b = sarek.binop sub %a, %z : f32
    %c = sarek.binop mul %b, %one : f32
    %d = sarek.binop div %c, %one : f32
    %e = sarek.binop add %d, %nz : f32
    %g = sarek.binop mul %e, %m1 : f32
    %iz = sarek.constant 0 : i32
    %i1 = sarek.constant 1 : i32
    %p = sarek.binop mul %i, %i1 : i32
    %q = sarek.binop add %iz, %p : i32
    %r = sarek.binop sub %q, %q : i32
    %s = sarek.binop mul %q, %iz : i32
    %t = sarek.binop rem %q, %i1 : i32
    %u = sarek.binop bitor %q, %r : i32
    %e0 = sarek.elem_ref %f[%i] : !sarek.vec<f32>
    sarek.store %e0, %g : !sarek.ref<f32>
    %e1 = sarek.elem_ref %o[%u] : !sarek.vec<i32>
    sarek.store %e1, %s : !sarek.ref<i32>
    sarek.store %e1, %t : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @ident
// CHECK:       %[[A:.*]] = sarek.binop add %x, %{{.*}} : f32
// CHECK-NEXT:  %[[G:.*]] = sarek.unop neg %[[A]] : f32
// CHECK-NEXT:  %[[S:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:  %[[T:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:  sarek.elem_ref %f[%i]
// CHECK-NEXT:  sarek.store %{{.*}}, %[[G]]
// CHECK-NEXT:  sarek.elem_ref %o[%i]
// CHECK-NEXT:  sarek.store %{{.*}}, %[[S]]
// CHECK-NEXT:  sarek.store %{{.*}}, %[[T]]

// -----

// Control: an `if` on a constant becomes its branch (scoped when it declares names), a loop that never runs
// and dead code go; an if_expr on a constant is its branch's value.
builtin.module {
  sarek.kernel @ctrl(%o : !sarek.vec<i32> "o", %n : i32 "n") {
    %t = sarek.constant true
    %z = sarek.constant 0 : i32
    %dead = sarek.binop mul %n, %n : i32
    %unused = sarek.array_read %o[%n] : !sarek.vec<i32>
    sarek.if %t {
      %v = sarek.let "v" %n : i32
      %e = sarek.elem_ref %o[%z] : !sarek.vec<i32>
      sarek.store %e, %v : !sarek.ref<i32>
    } else {
      %e = sarek.elem_ref %o[%n] : !sarek.vec<i32>
      sarek.store %e, %n : !sarek.ref<i32>
    }
    sarek.for "i" %i = %n to %n step 1 : i32 {
      %e = sarek.elem_ref %o[%i] : !sarek.vec<i32>
      sarek.store %e, %i : !sarek.ref<i32>
    }
    %x = sarek.if_expr %t -> i32 {
      sarek.yield %n : i32
    } else {
      sarek.yield %z : i32
    }
    %e2 = sarek.elem_ref %o[%x] : !sarek.vec<i32>
    sarek.store %e2, %x : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @ctrl
// CHECK-NOT:   binop mul
// CHECK-NOT:   array_read
// CHECK:       sarek.block {
// CHECK-NEXT:    %v = sarek.let "v" %n : i32
// CHECK:       }
// CHECK-NOT:   sarek.for
// CHECK-NOT:   if_expr
// CHECK:       sarek.elem_ref %o[%n]
// CHECK-NEXT:  sarek.store %{{.*}}, %n

// -----

// A short circuit whose right side reads local variables and computes without faulting becomes `and`.
builtin.module {
  sarek.kernel @sc(%o : !sarek.vec<i32> "o", %n : i32 "n") {
    %z = sarek.constant 0.0 : f32
    %x = sarek.let_mut "x" %z : f32
    %c = sarek.binop lt %n, %n : i32
    %b = sarek.if_expr %c -> i1 {
      %v = sarek.load %x : !sarek.ref<f32>
      %s = sarek.binop mul %v, %v : f32
      %l = sarek.binop le %s, %z : f32
      sarek.yield %l : i1
    } else {
      %f = sarek.constant false
      sarek.yield %f : i1
    }
    sarek.if %b {
      %e = sarek.elem_ref %o[%n] : !sarek.vec<i32>
      sarek.store %e, %n : !sarek.ref<i32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @sc
// CHECK:       %[[L:.*]] = sarek.binop le
// CHECK-NEXT:  %[[B:.*]] = sarek.binop and %c, %[[L]] : i1
// CHECK-NEXT:  sarek.if %[[B]]

// -----

// A remainder by 2^k asked only whether it is zero is a mask (right for negative x: -3 % 2 is -1, -3 & 1 is 1,
// both non-zero); an unsigned remainder by 2^k is always a mask; a remainder by 6, or one whose value is used,
// stays.
builtin.module {
  sarek.kernel @rm(%a : !sarek.vec<i32> "a", %u : !sarek.vec<ui32> "u", %o : !sarek.vec<i32> "o", %ou : !sarek.vec<ui32> "ou", %n : i32 "n") {
    %x = sarek.array_read %a[%n] : !sarek.vec<i32>
    %c2 = sarek.constant 2 : i32
    %c6 = sarek.constant 6 : i32
    %z = sarek.constant 0 : i32
    %r = sarek.binop rem %x, %c2 : i32
    %even = sarek.binop eq %r, %z : i32
    %r6 = sarek.binop rem %x, %c6 : i32
    %odd6 = sarek.binop ne %z, %r6 : i32
    %both = sarek.binop and %even, %odd6 : i1
    sarek.if %both {
      %e = sarek.elem_ref %o[%n] : !sarek.vec<i32>
      sarek.store %e, %r : !sarek.ref<i32>
    }
    %y = sarek.array_read %u[%n] : !sarek.vec<ui32>
    %c8 = sarek.constant 8 : ui32
    %ur = sarek.binop rem %y, %c8 : ui32
    %eu = sarek.elem_ref %ou[%n] : !sarek.vec<ui32>
    sarek.store %eu, %ur : !sarek.ref<ui32>
  }
}
// CHECK-LABEL: sarek.kernel @rm
// CHECK:       %[[R:.*]] = sarek.binop rem %{{.*}}, %{{.*}} : i32
// CHECK:       %[[M:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:  %[[A:.*]] = sarek.binop bitand %[[X:.*]], %[[M]] : i32
// CHECK-NEXT:  %{{.*}} = sarek.binop eq %[[A]], %{{.*}} : i32
// CHECK:       %[[R6:.*]] = sarek.binop rem %[[X]], %{{.*}} : i32
// CHECK-NEXT:  %{{.*}} = sarek.binop ne %{{.*}}, %[[R6]] : i32
// CHECK:       sarek.store %{{.*}}, %[[R]] : !sarek.ref<i32>
// CHECK:       %[[M7:.*]] = sarek.constant 7 : ui32
// CHECK-NEXT:  %[[UR:.*]] = sarek.binop bitand %{{.*}}, %[[M7]] : ui32
// CHECK:       sarek.store %{{.*}}, %[[UR]] : !sarek.ref<ui32>

// -----

// The Collatz step: under `x % 2 == 0` (a mask test after the rule above) `x / 2` is exact, so it is `x >> 1`
// (right for negative even x: -6 >> 1 is -3); the same division outside the guard, or under another
// condition, stays.
builtin.module {
  sarek.kernel @collatz(%a : !sarek.vec<i32> "a", %o : !sarek.vec<i32> "o", %n : i32 "n") {
    %x = sarek.array_read %a[%n] : !sarek.vec<i32>
    %c2 = sarek.constant 2 : i32
    %c3 = sarek.constant 3 : i32
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %r = sarek.binop rem %x, %c2 : i32
    %even = sarek.binop eq %r, %z : i32
    %next = sarek.if_expr %even -> i32 {
      %h = sarek.binop div %x, %c2 : i32
      sarek.yield %h : i32
    } else {
      %h2 = sarek.binop div %x, %c2 : i32
      %t = sarek.binop mul %h2, %c3 : i32
      sarek.yield %t : i32
    }
    %pos = sarek.binop gt %x, %z : i32
    %q = sarek.if_expr %pos -> i32 {
      %h3 = sarek.binop div %x, %c2 : i32
      sarek.yield %h3 : i32
    } else {
      sarek.yield %one : i32
    }
    %s = sarek.binop add %next, %q : i32
    %e = sarek.elem_ref %o[%n] : !sarek.vec<i32>
    sarek.store %e, %s : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @collatz
// CHECK:       sarek.if_expr
// CHECK-NEXT:    %[[K:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:    %[[S:.*]] = sarek.binop shr %[[X:.*]], %[[K]] : i32
// CHECK-NEXT:    sarek.yield %[[S]] : i32
// CHECK:       } else {
// CHECK-NEXT:    sarek.binop div %[[X]], %{{.*}} : i32
// CHECK:       sarek.if_expr
// CHECK-NEXT:    sarek.binop div %[[X]], %{{.*}} : i32

// -----

// u32/u64 constants fold modulo 2^n (WGSL refuses a constant expression that overflows: fuzz seed 800651);
// unsigned division and shifts are on the unsigned values.
builtin.module {
  sarek.kernel @u(%o : !sarek.vec<ui32> "o", %w : !sarek.vec<ui64> "w") {
    %z = sarek.constant 0 : i32
    %a = sarek.constant 2147483648 : ui32
    %one = sarek.constant 1 : ui32
    %s = sarek.binop shl %a, %one : ui32
    %m = sarek.binop mul %a, %a : ui32
    %d = sarek.binop div %a, %one : ui32
    %r = sarek.binop shr %a, %one : ui32
    %zero = sarek.constant 0 : ui32
    %sub = sarek.binop sub %zero, %one : ui32
    %big = sarek.constant 18446744073709551615 : ui64
    %one64 = sarek.constant 1 : ui64
    %w1 = sarek.binop add %big, %one64 : ui64
    %p = sarek.elem_ref %o[%z] : !sarek.vec<ui32>
    sarek.store %p, %s : !sarek.ref<ui32>
    sarek.store %p, %m : !sarek.ref<ui32>
    sarek.store %p, %d : !sarek.ref<ui32>
    sarek.store %p, %r : !sarek.ref<ui32>
    sarek.store %p, %sub : !sarek.ref<ui32>
    %q = sarek.elem_ref %w[%z] : !sarek.vec<ui64>
    sarek.store %q, %w1 : !sarek.ref<ui64>
  }
}
// CHECK-LABEL: sarek.kernel @u
// CHECK:       %s = sarek.constant 0 : ui32
// CHECK-NEXT:  %m = sarek.constant 0 : ui32
// CHECK-NEXT:  %d = sarek.constant 2147483648 : ui32
// CHECK-NEXT:  %r = sarek.constant 1073741824 : ui32
// CHECK:       %sub = sarek.constant 4294967295 : ui32
// CHECK-NEXT:  %w1 = sarek.constant 0 : ui64
