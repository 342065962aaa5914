// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Every sarek_c op in its custom syntax: C text (types, names, operators, templates) is a string literal, a
// value's type prints as its C type (`: "int"` for `!sarek_c.val<"int">`), operands print without types.
// Printing, parsing and printing again (also through the generic form) gives the same text.

builtin.module {
  sarek_c.verbatim "#include <cuda_runtime.h>\0Aextern \22C\22 {"
  sarek_c.struct "Point" {
    sarek_c.field "float" "x"
    sarek_c.field "float" "y"
  }
  sarek_c.struct "Shape" {
    sarek_c.field "int" "tag"
    sarek_c.union "u" {
      sarek_c.nested_struct "Circle" {
        sarek_c.field "float" "r"
      }
      sarek_c.field "Point" "p"
    }
  }
  sarek_c.enum {"Shape_Circle" = 0, "Shape_Square" = 1}
  sarek_c.enum {}
  sarek_c.func "float" @sq(%x : "float" "x") {
    %0 = sarek_c.binary "*" %x, %x : "float"
    sarek_c.return %0
  }
  sarek_c.func "void" @nothing() {
    sarek_c.return
    %0 = sarek_c.lit "0" : "int"
    sarek_c.eval %0
  }
  sarek_c.func "extern \22C\22 __global__" "void" @k(%v : "float* __restrict__" "v", %n : "int" "n", %t : "float" "t" "[4]") attributes {note = "kernel"} {
    %zero = sarek_c.lit "0" : "int"
    %one = sarek_c.lit "1" : "int"
    %tid = sarek_c.expr "(int)(blockIdx.x * blockDim.x + threadIdx.x)" : "int"
    %i = sarek_c.decl "i" %tid : "int"
    %acc = sarek_c.decl "acc" : "float"
    %sz = sarek_c.lit "256" : "int"
    %tile = sarek_c.array_decl "tile"[%sz] : "__shared__ float"
    %hist = sarek_c.array_decl "hist"[%sz] = "{0}" : "int"
    %lt = sarek_c.binary "<" %i, %n : "int"
    %neg = sarek_c.unary "-" %i : "int"
    %f = sarek_c.cast %neg : "float"
    %s = sarek_c.call "sq"(%f) : "float"
    %r = sarek_c.call "rand"() : "float"
    %e = sarek_c.expr "__syncthreads()" : "void"
    sarek_c.eval %e
    %at = sarek_c.expr "atomicAdd(&{0}, {1})"(%acc, %s) : "float"
    sarek_c.eval %at
    %p = sarek_c.record_lit {%f, %r} : "Point"
    %q = sarek_c.record_lit {"x" = %f, "y" = %s} : "Point"
    %px = sarek_c.member %p "x" : "float"
    %sel = sarek_c.select %lt, %px, %r : "float"
    %vi = sarek_c.index %v[%i] : "float"
    sarek_c.assign %vi = %sel
    sarek_c.if %lt {
      sarek_c.assign %acc = %px
    }
    sarek_c.if %lt {
      sarek_c.block {
        %qy = sarek_c.member %q "y" : "float"
        sarek_c.assign %acc = %qy
      }
    } else {
    }
    sarek_c.pragma "unroll"
    sarek_c.for %j : "int" "j" = %zero to %n step 1 {
      %tj = sarek_c.index %tile[%j] : "float"
      sarek_c.assign %tj = %acc
    }
    sarek_c.for %k : "int" "k" = %n to %zero step -2 attributes {unrolled} {
    }
    sarek_c.while {
      %c = sarek_c.binary "<" %acc, %f : "int"
      sarek_c.yield %c
    } do {
      sarek_c.assign %acc = %f
    }
    sarek_c.switch %i case "0" {
      sarek_c.assign %acc = %r
    } case "Shape_Square" {
    } default {
      sarek_c.assign %acc = %s
    }
    sarek_c.switch %i
    sarek_c.return
  }
  sarek_c.verbatim "}"
}

// CHECK:      builtin.module {
// CHECK-NEXT:   sarek_c.verbatim "#include <cuda_runtime.h>\0Aextern \22C\22 {"
// CHECK-NEXT:   sarek_c.struct "Point" {
// CHECK-NEXT:     sarek_c.field "float" "x"
// CHECK-NEXT:     sarek_c.field "float" "y"
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek_c.struct "Shape" {
// CHECK-NEXT:     sarek_c.field "int" "tag"
// CHECK-NEXT:     sarek_c.union "u" {
// CHECK-NEXT:       sarek_c.nested_struct "Circle" {
// CHECK-NEXT:         sarek_c.field "float" "r"
// CHECK-NEXT:       }
// CHECK-NEXT:       sarek_c.field "Point" "p"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek_c.enum {"Shape_Circle" = 0, "Shape_Square" = 1}
// CHECK-NEXT:   sarek_c.enum {}
// CHECK-NEXT:   sarek_c.func "float" @sq(%x : "float" "x") {
// CHECK-NEXT:     %0 = sarek_c.binary "*" %x, %x : "float"
// CHECK-NEXT:     sarek_c.return %0
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek_c.func "void" @nothing() {
// CHECK-NEXT:     sarek_c.return
// CHECK-NEXT:     %1 = sarek_c.lit "0" : "int"
// CHECK-NEXT:     sarek_c.eval %1
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek_c.func "extern \22C\22 __global__" "void" @k(%v : "float* __restrict__" "v", %n : "int" "n", %t : "float" "t" "[4]") attributes {note = "kernel"} {
// CHECK-NEXT:     %zero = sarek_c.lit "0" : "int"
// CHECK-NEXT:     %one = sarek_c.lit "1" : "int"
// CHECK-NEXT:     %tid = sarek_c.expr "(int)(blockIdx.x * blockDim.x + threadIdx.x)" : "int"
// CHECK-NEXT:     %i = sarek_c.decl "i" %tid : "int"
// CHECK-NEXT:     %acc = sarek_c.decl "acc" : "float"
// CHECK-NEXT:     %sz = sarek_c.lit "256" : "int"
// CHECK-NEXT:     %tile = sarek_c.array_decl "tile"[%sz] : "__shared__ float"
// CHECK-NEXT:     %hist = sarek_c.array_decl "hist"[%sz] = "{0}" : "int"
// CHECK-NEXT:     %lt = sarek_c.binary "<" %i, %n : "int"
// CHECK-NEXT:     %neg = sarek_c.unary "-" %i : "int"
// CHECK-NEXT:     %f = sarek_c.cast %neg : "float"
// CHECK-NEXT:     %s = sarek_c.call "sq"(%f) : "float"
// CHECK-NEXT:     %r = sarek_c.call "rand"() : "float"
// CHECK-NEXT:     %e = sarek_c.expr "__syncthreads()" : "void"
// CHECK-NEXT:     sarek_c.eval %e
// CHECK-NEXT:     %at = sarek_c.expr "atomicAdd(&{0}, {1})"(%acc, %s) : "float"
// CHECK-NEXT:     sarek_c.eval %at
// CHECK-NEXT:     %p = sarek_c.record_lit {%f, %r} : "Point"
// CHECK-NEXT:     %q = sarek_c.record_lit {"x" = %f, "y" = %s} : "Point"
// CHECK-NEXT:     %px = sarek_c.member %p "x" : "float"
// CHECK-NEXT:     %sel = sarek_c.select %lt, %px, %r : "float"
// CHECK-NEXT:     %vi = sarek_c.index %v[%i] : "float"
// CHECK-NEXT:     sarek_c.assign %vi = %sel
// CHECK-NEXT:     sarek_c.if %lt {
// CHECK-NEXT:       sarek_c.assign %acc = %px
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.if %lt {
// CHECK-NEXT:       sarek_c.block {
// CHECK-NEXT:         %qy = sarek_c.member %q "y" : "float"
// CHECK-NEXT:         sarek_c.assign %acc = %qy
// CHECK-NEXT:       }
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.pragma "unroll"
// CHECK-NEXT:     sarek_c.for %j : "int" "j" = %zero to %n step 1 {
// CHECK-NEXT:       %tj = sarek_c.index %tile[%j] : "float"
// CHECK-NEXT:       sarek_c.assign %tj = %acc
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.for %k : "int" "k" = %n to %zero step -2 attributes {unrolled} {
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.while {
// CHECK-NEXT:       %c = sarek_c.binary "<" %acc, %f : "int"
// CHECK-NEXT:       sarek_c.yield %c
// CHECK-NEXT:     } do {
// CHECK-NEXT:       sarek_c.assign %acc = %f
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.switch %i case "0" {
// CHECK-NEXT:       sarek_c.assign %acc = %r
// CHECK-NEXT:     } case "Shape_Square" {
// CHECK-NEXT:     } default {
// CHECK-NEXT:       sarek_c.assign %acc = %s
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek_c.switch %i
// CHECK-NEXT:     sarek_c.return
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek_c.verbatim "}"
// CHECK-NEXT: }
