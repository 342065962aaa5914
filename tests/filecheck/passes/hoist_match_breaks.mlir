// RUN: sarek-opt %s -p sarek-hoist-match-breaks | filecheck %s

// A break inside a match statement (a switch in C, GLSL and WGSL, where break leaves the switch) becomes a
// store to a flag; what follows a possible break inside the case is guarded; the loop's break follows the
// match. A break of a loop inside the case, continue and return stay.
sarek.variant @op {Stop, Skip, Add(i32)}
sarek.kernel @k(%ops : !sarek.vec<!sarek.variant<@op>> "ops", %o : !sarek.vec<i32> "o", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  sarek.for "i" %i = %z to %n step 1 : i32 {
    %c = sarek.array_read %ops[%i] : !sarek.vec<!sarek.variant<@op>>
    sarek.match %c : !sarek.variant<@op> {
      case "Stop" {
        sarek.break
      }
      case "Add"(%x : i32 "x") {
        %neg = sarek.binop lt %x, %z : i32
        sarek.if %neg {
          sarek.break
        }
        %p = sarek.elem_ref %o[%i] : !sarek.vec<i32>
        sarek.store %p, %x : !sarek.ref<i32>
        sarek.for "j" %j = %z to %x step 1 : i32 {
          sarek.break
        }
      }
      default {
        sarek.continue
      }
    }
  }
}
// CHECK:      sarek.for "i" %i = %z to %n step 1 : i32 {
// CHECK-NEXT:   %c = sarek.array_read %ops[%i] : !sarek.vec<!sarek.variant<@op>>
// CHECK-NEXT:   %0 = sarek.constant false
// CHECK-NEXT:   %brk = sarek.let_mut "brk" %0 : i1
// CHECK-NEXT:   sarek.match %c : !sarek.variant<@op> {
// CHECK-NEXT:     case "Stop" {
// CHECK-NEXT:       %1 = sarek.constant true
// CHECK-NEXT:       sarek.store %brk, %1 : !sarek.ref<i1>
// CHECK-NEXT:     }
// CHECK-NEXT:     case "Add"(%x: i32 "x") {
// CHECK-NEXT:       %neg = sarek.binop lt %x, %z : i32
// CHECK-NEXT:       sarek.if %neg {
// CHECK-NEXT:         %2 = sarek.constant true
// CHECK-NEXT:         sarek.store %brk, %2 : !sarek.ref<i1>
// CHECK-NEXT:       }
// CHECK-NEXT:       %3 = sarek.load %brk : !sarek.ref<i1>
// CHECK-NEXT:       %4 = sarek.unop not %3 : i1
// CHECK-NEXT:       sarek.if %4 {
// CHECK-NEXT:         %p = sarek.elem_ref %o[%i] : !sarek.vec<i32>
// CHECK-NEXT:         sarek.store %p, %x : !sarek.ref<i32>
// CHECK-NEXT:         sarek.for "j" %j = %z to %x step 1 : i32 {
// CHECK-NEXT:           sarek.break
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       sarek.continue
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %5 = sarek.load %brk : !sarek.ref<i1>
// CHECK-NEXT:   sarek.if %5 {
// CHECK-NEXT:     sarek.break
// CHECK-NEXT:   }
// CHECK-NEXT: }

// A break followed by statements whose values feed each other (a constant-true `if` around the break folded
// away; fuzz seed 400616): the dead statements are erased users first ("Attempting to delete SSA value that
// still has uses" before).
sarek.kernel @dead_after_break(%s : !sarek.variant<@op> "s", %a : !sarek.vec<i32> "a", %o : !sarek.vec<i32> "o", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  sarek.while {
    %go = sarek.binop lt %z, %n : i32
    sarek.yield %go : i1
  } do {
    sarek.match %s : !sarek.variant<@op> {
      case "Stop" {
        sarek.break
        %v = sarek.array_read %a[%z] : !sarek.vec<i32>
        %w = sarek.binop add %v, %v : i32
        %p = sarek.elem_ref %o[%z] : !sarek.vec<i32>
        sarek.store %p, %w : !sarek.ref<i32>
      }
      default {
      }
    }
  }
}
// CHECK-LABEL: sarek.kernel @dead_after_break
// CHECK:         sarek.match %s : !sarek.variant<@op> {
// CHECK-NEXT:      case "Stop" {
// CHECK-NEXT:        %{{.*}} = sarek.constant true
// CHECK-NEXT:        sarek.store %brk, %{{.*}} : !sarek.ref<i1>
// CHECK-NEXT:      }
// CHECK:         %{{.*}} = sarek.load %brk : !sarek.ref<i1>
// CHECK-NEXT:    sarek.if %{{.*}} {
// CHECK-NEXT:      sarek.break
// CHECK-NEXT:    }
