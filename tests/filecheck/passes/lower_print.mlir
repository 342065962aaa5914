// RUN: sarek-opt %s --split-input-file | sarek-opt --split-input-file | filecheck %s --check-prefix=ROUND
// RUN: sarek-opt %s --split-input-file -p sarek-lower-print | filecheck %s

// A print in a helper: the helper and the kernel get the buffer, the call passes it; the format table is a
// module attribute; i64 and f64 values take two words (low first), f32 its bits, a bool one word.
builtin.module {
  sarek.helper @h(%x : f32 "x", %b : i1 "b") -> !sarek.unit {
    sarek.print "x = {} {}\0A"(%x, %b) : f32, i1 loc("k.py":2:5)
    sarek.return
  }
  sarek.kernel @k(%n : i64 "n", %d : f64 "d") {
    %one = sarek.constant 1.0 : f32
    %t = sarek.constant true
    sarek.call @h(%one, %t) : (f32, i1) -> ()
    sarek.print "n = {} d = {}\0A"(%n, %d) : i64, f64
  }
}

// ROUND:      sarek.print "x = {} {}\0A"(%x, %b) : f32, i1
// ROUND:      sarek.print "n = {} d = {}\0A"(%n, %d) : i64, f64

// CHECK:      builtin.module attributes {sarek.debug_formats = [["k.py:2:5", "x = {} {}\0A", "f32", "i1"], ["<unknown>", "n = {} d = {}\0A", "i64", "f64"]]} {
// CHECK-NEXT:   sarek.helper @h(%x: f32 "x", %b: i1 "b", %sarek_debug: !sarek.vec<i32> "sarek_debug") -> !sarek.unit {
// CHECK-NEXT:     %[[XW:.*]] = sarek.bitcast %x : f32 to i32
// CHECK-NEXT:     %[[BW:.*]] = sarek.cast %b : i1 to i32
// CHECK-NEXT:     %[[C11:.*]] = sarek.constant 11 : i32
// CHECK-NEXT:     %[[SIZE:.*]] = sarek.constant 6 : i32
// CHECK-NEXT:     %[[POS:.*]] = sarek.intrinsic "atomic_add"(%sarek_debug, %[[C11]], %[[SIZE]]) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NEXT:     %[[LEN:.*]] = sarek.array_len %sarek_debug : !sarek.vec<i32>
// CHECK:          sarek.if %{{.*}} {
// CHECK:            sarek.store %{{.*}}, %[[XW]] : !sarek.ref<i32>
// CHECK:            sarek.store %{{.*}}, %[[BW]] : !sarek.ref<i32>
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %[[C12:.*]] = sarek.constant 12 : i32
// CHECK-NEXT:       %{{.*}} = sarek.constant 1 : i32
// CHECK-NEXT:       %{{.*}} = sarek.intrinsic "atomic_add"(%sarek_debug, %[[C12]], %{{.*}})
// CHECK:        sarek.kernel @k(%n: i64 "n", %d: f64 "d", %sarek_debug: !sarek.vec<i32> "sarek_debug") {
// CHECK:          sarek.call @h(%one, %t, %sarek_debug) : (f32, i1, !sarek.vec<i32>) -> ()
// CHECK-NEXT:     %[[NLO:.*]] = sarek.cast %n : i64 to i32
// CHECK-NEXT:     %[[C32:.*]] = sarek.constant 32 : i64
// CHECK-NEXT:     %[[NHI64:.*]] = sarek.binop shr %n, %[[C32]] : i64
// CHECK-NEXT:     %[[NHI:.*]] = sarek.cast %[[NHI64]] : i64 to i32
// CHECK-NEXT:     %[[DB:.*]] = sarek.bitcast %d : f64 to i64
// CHECK:          %[[C8:.*]] = sarek.constant 8 : i32
// CHECK-NEXT:     sarek.intrinsic "atomic_add"(%sarek_debug, %{{.*}}, %[[C8]])

// -----

// A module without print is unchanged (no buffer).
builtin.module {
  sarek.kernel @quiet(%v : !sarek.vec<f32> "v") {
  }
}

// CHECK:      sarek.kernel @quiet(%v: !sarek.vec<f32> "v") {
// CHECK-NOT:  sarek_debug

// -----

// bf16 is printed as its f32 value's bits (it was converted to an int: bf16 1.5 printed 1e-45), u64 as two
// words like i64 (it took one: 2**64 - 1 printed 4294967295), u8 as one zero-extended word.
builtin.module {
  sarek.kernel @narrow(%h : bf16 "h", %u : ui64 "u", %c : ui8 "c") {
    sarek.print "{} {} {}\0A"(%h, %u, %c) : bf16, ui64, ui8
  }
}
// CHECK-LABEL: sarek.kernel @narrow
// CHECK-NEXT:    %[[HF:.*]] = sarek.cast %h : bf16 to f32
// CHECK-NEXT:    %[[HW:.*]] = sarek.bitcast %[[HF]] : f32 to i32
// CHECK-NEXT:    %[[LO:.*]] = sarek.cast %u : ui64 to i32
// CHECK-NEXT:    %[[K32:.*]] = sarek.constant 32 : ui64
// CHECK-NEXT:    %[[SH:.*]] = sarek.binop shr %u, %[[K32]] : ui64
// CHECK-NEXT:    %[[HI:.*]] = sarek.cast %[[SH]] : ui64 to i32
// CHECK-NEXT:    %[[CW:.*]] = sarek.cast %c : ui8 to i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 11 : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 8 : i32
