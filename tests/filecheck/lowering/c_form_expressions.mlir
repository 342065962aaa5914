// RUN: sarek-opt %s -p 'sarek-c-form-expressions' --split-input-file | filecheck %s

// sarek-c-form-expressions on sarek_c IR as sarek-lower-cfamily leaves it (one temporary per value).

// A single-use temporary folds into its use, a trivial one (literal, name) into every use, a non-trivial one
// used twice keeps its temporary; temporaries are named after folding, so the kept one is plain `sarek_t`.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %0 = sarek_c.lit "1" : "int"
    %1 = sarek_c.decl "sarek_t" %0 : "int" attributes {sarek_c.temp = "t"}
    %2 = sarek_c.binary "+" %i, %1 : "int"
    %3 = sarek_c.decl "sarek_t_1" %2 : "int" attributes {sarek_c.temp = "t"}
    %4 = sarek_c.binary "*" %3, %3 : "int"
    %5 = sarek_c.decl "sarek_t_2" %4 : "int" attributes {sarek_c.temp = "t"}
    %6 = sarek_c.index %v[%1] : "int"
    sarek_c.assign %6 = %5
  }
}
// CHECK:      %[[ONE:.*]] = sarek_c.lit "1" : "int"
// CHECK-NEXT: %[[SUM:.*]] = sarek_c.binary "+" %i, %[[ONE]] : "int"
// CHECK-NEXT: %[[T:.*]] = sarek_c.decl "sarek_t" %[[SUM]] : "int" attributes {sarek_c.temp = "t"}
// CHECK-NEXT: %[[SQ:.*]] = sarek_c.binary "*" %[[T]], %[[T]] : "int"
// CHECK-NEXT: %[[P:.*]] = sarek_c.index %v[%[[ONE]]] : "int"
// CHECK-NEXT: sarek_c.assign %[[P]] = %[[SQ]]
// CHECK-NEXT: }

// -----

// A memory read does not move across a write to memory; a read of a variable not across its assignment.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %0 = sarek_c.index %v[%i] : "int"
    %1 = sarek_c.decl "sarek_x" %0 : "int" attributes {sarek_c.temp = "x"}
    %2 = sarek_c.lit "0" : "int"
    %3 = sarek_c.decl "acc" %2 : "int"
    %4 = sarek_c.decl "sarek_a" %3 : "int" attributes {sarek_c.temp = "a"}
    sarek_c.assign %0 = %2
    sarek_c.assign %3 = %i
    %5 = sarek_c.binary "+" %1, %4 : "int"
    sarek_c.assign %0 = %5
  }
}
// CHECK:      %[[X:.*]] = sarek_c.decl "sarek_x" %{{.*}} : "int" attributes {sarek_c.temp = "x"}
// CHECK:      %[[ACC:.*]] = sarek_c.decl "acc" %{{.*}} : "int"
// CHECK-NEXT: %[[A:.*]] = sarek_c.decl "sarek_a" %[[ACC]] : "int" attributes {sarek_c.temp = "a"}
// CHECK:      sarek_c.binary "+" %[[X]], %[[A]] : "int"

// -----

// A call that writes memory folds into its use only across pure temporaries; not across a memory read.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %0 = sarek_c.call "bump"(%v) : "int" attributes {sarek_c.effects = "write"}
    %1 = sarek_c.decl "sarek_b" %0 : "int" attributes {sarek_c.temp = "b"}
    %2 = sarek_c.binary "+" %i, %i : "int"
    %3 = sarek_c.decl "sarek_s" %2 : "int" attributes {sarek_c.temp = "s"}
    %4 = sarek_c.binary "+" %1, %3 : "int"
    %5 = sarek_c.index %v[%i] : "int"
    sarek_c.assign %5 = %4
    %6 = sarek_c.call "bump"(%v) : "int" attributes {sarek_c.effects = "write"}
    %7 = sarek_c.decl "sarek_c" %6 : "int" attributes {sarek_c.temp = "c"}
    %8 = sarek_c.index %v[%i] : "int"
    %9 = sarek_c.decl "sarek_r" %8 : "int" attributes {sarek_c.temp = "r"}
    %10 = sarek_c.binary "+" %7, %9 : "int"
    sarek_c.assign %5 = %10
  }
}
// CHECK:      %[[B:.*]] = sarek_c.call "bump"(%v) : "int" attributes {sarek_c.effects = "write"}
// CHECK-NEXT: %[[S:.*]] = sarek_c.binary "+" %i, %i : "int"
// CHECK-NEXT: sarek_c.binary "+" %[[B]], %[[S]] : "int"
// CHECK:      %[[C:.*]] = sarek_c.call "bump"(%v) : "int" attributes {sarek_c.effects = "write"}
// CHECK-NEXT: %[[CT:.*]] = sarek_c.decl "sarek_c" %[[C]] : "int" attributes {sarek_c.temp = "c"}
// CHECK-NEXT: %[[R:.*]] = sarek_c.index %v[%i] : "int"
// CHECK-NEXT: sarek_c.binary "+" %[[CT]], %[[R]] : "int"

// -----

// A memory read folds into an if whose body is reached with no write before; not into a loop that writes.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %0 = sarek_c.index %v[%i] : "int"
    %1 = sarek_c.decl "sarek_x" %0 : "int" attributes {sarek_c.temp = "x"}
    %2 = sarek_c.index %v[%i] : "int"
    %3 = sarek_c.decl "sarek_y" %2 : "int" attributes {sarek_c.temp = "y"}
    sarek_c.if %i {
      %4 = sarek_c.index %v[%i] : "int"
      sarek_c.assign %4 = %1
    }
    sarek_c.for %j : "int" "j" = %i to %i step 1 {
      %5 = sarek_c.index %v[%j] : "int"
      sarek_c.assign %5 = %3
    }
  }
}
// CHECK:      %[[X:.*]] = sarek_c.index %v[%i] : "int"
// CHECK-NEXT: %[[Y:.*]] = sarek_c.index %v[%i] : "int"
// CHECK-NEXT: %[[YT:.*]] = sarek_c.decl "sarek_y" %[[Y]] : "int" attributes {sarek_c.temp = "y"}
// CHECK:      sarek_c.assign %{{.*}} = %[[X]]
// CHECK:      sarek_c.assign %{{.*}} = %[[YT]]

// -----

// A value if whose arms fold becomes a select (then is decided like any temporary); one whose arm keeps a
// temporary stays an if.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %0 = sarek_c.decl "sarek_r" : "int" attributes {sarek_c.temp = "r"}
    sarek_c.if %i attributes {sarek_c.value} {
      %1 = sarek_c.unary "-" %i : "int"
      %2 = sarek_c.decl "sarek_n" %1 : "int" attributes {sarek_c.temp = "n"}
      sarek_c.assign %0 = %2
    } else {
      sarek_c.assign %0 = %i
    }
    %3 = sarek_c.decl "sarek_q" : "int" attributes {sarek_c.temp = "q"}
    sarek_c.if %i attributes {sarek_c.value} {
      %4 = sarek_c.binary "+" %i, %i : "int"
      %5 = sarek_c.decl "sarek_d" %4 : "int" attributes {sarek_c.temp = "d"}
      %6 = sarek_c.binary "*" %5, %5 : "int"
      sarek_c.assign %3 = %6
    } else {
      sarek_c.assign %3 = %i
    }
    %7 = sarek_c.binary "+" %0, %3 : "int"
    %8 = sarek_c.index %v[%i] : "int"
    sarek_c.assign %8 = %7
  }
}
// CHECK:      %[[NEG:.*]] = sarek_c.unary "-" %i : "int"
// CHECK-NEXT: %[[SEL:.*]] = sarek_c.select %i, %[[NEG]], %i : "int"
// CHECK-NEXT: %[[Q:.*]] = sarek_c.decl "sarek_q" : "int" attributes {sarek_c.temp = "q"}
// CHECK-NEXT: sarek_c.if %i attributes {sarek_c.value} {
// CHECK:        sarek_c.decl "sarek_d"
// CHECK:      sarek_c.binary "+" %[[SEL]], %[[Q]] : "int"

// -----

// A value switch whose cases fold becomes a chain of tag tests; its binders become their payload reads.
builtin.module {
  sarek_c.func "__global__" "void" @k(%s : "shape" "s", %o : "float*" "o") {
    %0 = sarek_c.decl "sarek_a" : "float" attributes {sarek_c.temp = "a"}
    %1 = sarek_c.member %s "tag" : "int"
    sarek_c.switch %1 attributes {sarek_c.value} case "Circle" {
      %2 = sarek_c.member %s "data" : "struct"
      %3 = sarek_c.member %2 "Circle_v" : "float"
      %4 = sarek_c.decl "rad" %3 : "float" attributes {sarek_c.binder}
      %5 = sarek_c.binary "*" %4, %4 : "float"
      %6 = sarek_c.decl "sarek_q" %5 : "float" attributes {sarek_c.temp = "q"}
      sarek_c.assign %0 = %6
    } default {
      %7 = sarek_c.member %s "data" : "struct"
      %8 = sarek_c.member %7 "Square_v" : "float"
      %9 = sarek_c.decl "w" %8 : "float" attributes {sarek_c.binder}
      sarek_c.assign %0 = %9
    }
    %10 = sarek_c.lit "0" : "int"
    %11 = sarek_c.index %o[%10] : "float"
    sarek_c.assign %11 = %0
  }
}
// CHECK:      %[[TAG:.*]] = sarek_c.member %s "tag" : "int"
// CHECK:      %[[RAD:.*]] = sarek_c.member %{{.*}} "Circle_v" : "float"
// CHECK-NEXT: %[[SQ:.*]] = sarek_c.binary "*" %[[RAD]], %[[RAD]] : "float"
// CHECK:      %[[W:.*]] = sarek_c.member %{{.*}} "Square_v" : "float"
// CHECK-NEXT: %[[C:.*]] = sarek_c.lit "Circle" : "int"
// CHECK-NEXT: %[[TEST:.*]] = sarek_c.binary "==" %[[TAG]], %[[C]] : "int"
// CHECK-NEXT: %[[SEL:.*]] = sarek_c.select %[[TEST]], %[[SQ]], %[[W]] : "float"
// CHECK:      sarek_c.assign %{{.*}} = %[[SEL]]
// CHECK-NOT:  sarek_c.switch
