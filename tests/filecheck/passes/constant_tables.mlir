// RUN: sarek-opt %s -p 'sarek-constant-tables{target=cuda}' --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-constant-tables{target=ptx limit=12}' --split-input-file | filecheck %s --check-prefix=LIMIT
// RUN: sarek-opt %s -p 'sarek-constant-tables{target=glsl}' --split-input-file | filecheck %s --check-prefix=GLSL

// A module-level table as the front end builds it (a local array filled by constants at entry, then only read)
// becomes one constant array named <function>_<table>, its stores gone. Under a 12-byte limit the first table
// (12 bytes) fits and the second stays local; GLSL keeps per-thread tables.
builtin.module {
  sarek.kernel @k(%x: !sarek.vec<f32> "x", %i: i32 "i") {
    %c3 = sarek.constant 3 : i32
    %taps = sarek.alloc_array "TAPS"[%c3] : !sarek.array<f32, local>
    %c0 = sarek.constant 0 : i32
    %r0 = sarek.elem_ref %taps[%c0] : !sarek.array<f32, local>
    %v0 = sarek.constant 0.25 : f32
    sarek.store %r0, %v0 : !sarek.ref<f32>
    %c1 = sarek.constant 1 : i32
    %r1 = sarek.elem_ref %taps[%c1] : !sarek.array<f32, local>
    %v1 = sarek.constant 0.5 : f32
    sarek.store %r1, %v1 : !sarek.ref<f32>
    %c2 = sarek.constant 2 : i32
    %r2 = sarek.elem_ref %taps[%c2] : !sarek.array<f32, local>
    sarek.store %r2, %v0 : !sarek.ref<f32>
    %grid = sarek.alloc_array "GRID"[%c1, %c2] : !sarek.array<i32, local, 2>
    %g0 = sarek.elem_ref %grid[%c0, %c0] : !sarek.array<i32, local, 2>
    %w7 = sarek.constant 7 : i32
    sarek.store %g0, %w7 : !sarek.ref<i32>
    %g1 = sarek.elem_ref %grid[%c0, %c1] : !sarek.array<i32, local, 2>
    %w9 = sarek.constant -9 : i32
    sarek.store %g1, %w9 : !sarek.ref<i32>
    %a = sarek.array_read %taps[%i] : !sarek.array<f32, local>
    %b = sarek.array_read %grid[%c0, %i] : !sarek.array<i32, local, 2>
    %rx = sarek.elem_ref %x[%i] : !sarek.vec<f32>
    sarek.store %rx, %a : !sarek.ref<f32>
  }
}
// CHECK:     %k_TAPS = sarek.alloc_array "k_TAPS"[%c3] = [2.500000e-01 : f32, 5.000000e-01 : f32, 2.500000e-01 : f32] : !sarek.array<f32, constant>
// CHECK:     %k_GRID = sarek.alloc_array "k_GRID"[%c1, %c2] = [7 : i32, -9 : i32] : !sarek.array<i32, constant, 2>
// CHECK-NOT: sarek.store %{{r|g}}
// CHECK:     sarek.array_read %k_TAPS[%i] : !sarek.array<f32, constant>
// CHECK:     sarek.array_read %k_GRID[%c0, %i] : !sarek.array<i32, constant, 2>

// LIMIT:     %k_TAPS = sarek.alloc_array "k_TAPS"[%c3] = [
// LIMIT:     %grid = sarek.alloc_array "GRID"[%c1, %c2] : !sarek.array<i32, local, 2>
// LIMIT:     sarek.store %g1, %w9

// GLSL:      %taps = sarek.alloc_array "TAPS"[%c3] : !sarek.array<f32, local>
// GLSL:      sarek.store %r2, %v0

// -----
// Not tables: an array written after entry, one read before it is filled, one passed to a helper, one with a
// slot never stored.
builtin.module {
  sarek.helper @h(%t: !sarek.array<f32, local> "t") -> f32 {
    %c0 = sarek.constant 0 : i32
    %v = sarek.array_read %t[%c0] : !sarek.array<f32, local>
    sarek.return %v : f32
  }
  sarek.kernel @k(%i: i32 "i", %p: i1 "p") {
    %c1 = sarek.constant 1 : i32
    %c0 = sarek.constant 0 : i32
    %one = sarek.constant 1.0 : f32
    %late = sarek.alloc_array "late"[%c1] : !sarek.array<f32, local>
    %l0 = sarek.elem_ref %late[%c0] : !sarek.array<f32, local>
    sarek.store %l0, %one : !sarek.ref<f32>
    sarek.if %p {
      %l1 = sarek.elem_ref %late[%c0] : !sarek.array<f32, local>
      sarek.store %l1, %one : !sarek.ref<f32>
    }
    %early = sarek.alloc_array "early"[%c1] : !sarek.array<f32, local>
    %e = sarek.array_read %early[%c0] : !sarek.array<f32, local>
    %e0 = sarek.elem_ref %early[%c0] : !sarek.array<f32, local>
    sarek.store %e0, %one : !sarek.ref<f32>
    %passed = sarek.alloc_array "passed"[%c1] : !sarek.array<f32, local>
    %p0 = sarek.elem_ref %passed[%c0] : !sarek.array<f32, local>
    sarek.store %p0, %one : !sarek.ref<f32>
    %h = sarek.call @h(%passed) : (!sarek.array<f32, local>) -> f32
    %c2 = sarek.constant 2 : i32
    %half = sarek.alloc_array "half"[%c2] : !sarek.array<f32, local>
    %h0 = sarek.elem_ref %half[%c0] : !sarek.array<f32, local>
    sarek.store %h0, %one : !sarek.ref<f32>
    %hr = sarek.array_read %half[%i] : !sarek.array<f32, local>
  }
}
// CHECK-NOT: constant>
// CHECK:     %late = sarek.alloc_array "late"[%c1] : !sarek.array<f32, local>
// CHECK:     %early = sarek.alloc_array "early"[%c1] : !sarek.array<f32, local>
// CHECK:     %passed = sarek.alloc_array "passed"[%c1] : !sarek.array<f32, local>
// CHECK:     %half = sarek.alloc_array "half"[%c2] : !sarek.array<f32, local>
// CHECK-NOT: constant>
