// RUN: sarek-opt %s -p 'sarek-subst-match-payloads{layout=c}' --verify-diagnostics --split-input-file | filecheck %s --check-prefixes=CHECK,C
// RUN: sarek-opt %s -p 'sarek-subst-match-payloads{layout=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefixes=CHECK,GLSL
// RUN: sarek-opt %s -p 'sarek-subst-match-payloads{layout=wgsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefixes=CHECK,WGSL
// The rewrite clears every binder list, so a second run changes nothing.
// RUN: sarek-opt %s -p 'sarek-subst-match-payloads{layout=wgsl},sarek-subst-match-payloads{layout=wgsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefixes=CHECK,WGSL

// Statement and expression matches lose their binders; each used binder becomes a payload read at the
// start of its case, with the target's field path.
builtin.module {
  sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
  sarek.kernel @k(%s : !sarek.variant<@shape> "s", %out : !sarek.vec<f32> "out") {
    %i = sarek.constant 0 : i32
    %o = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.match %s : !sarek.variant<@shape> {
      case "Circle"(%r : f32 "r") {
        sarek.store %o, %r : !sarek.ref<f32>
      }
      case "Rect"(%w : f32 "w", %h : f32 "h") {
        %a = sarek.binop mul %w, %h : f32
        sarek.store %o, %a : !sarek.ref<f32>
      }
      default {
      }
    }
    %p = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
      case "Rect"(%w : f32 "w", %h : f32 "_") {
        sarek.yield %w : f32
      }
      case "Circle"(%r : f32 "r") {
        sarek.yield %r : f32
      }
      default {
        %z = sarek.constant 0.0 : f32
        sarek.yield %z : f32
      }
    }
  }
}
// CHECK:      sarek.match %s : !sarek.variant<@shape> {
// CHECK-NEXT:   case "Circle" {
// C-NEXT:         %r = sarek.payload %s "Circle" 0 path ["data", "Circle_v"] : f32
// GLSL-NEXT:      %r = sarek.payload %s "Circle" 0 path ["Circle_v"] : f32
// WGSL-NEXT:      %r = sarek.payload %s "Circle" 0 path ["Circle_v"] : f32
// CHECK-NEXT:     sarek.store %o, %r : !sarek.ref<f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   case "Rect" {
// C-NEXT:         %w = sarek.payload %s "Rect" 0 path ["data", "Rect_v", "_0"] : f32
// C-NEXT:         %h = sarek.payload %s "Rect" 1 path ["data", "Rect_v", "_1"] : f32
// GLSL-NEXT:      %w = sarek.payload %s "Rect" 0 path ["Rect_v", "_0"] : f32
// GLSL-NEXT:      %h = sarek.payload %s "Rect" 1 path ["Rect_v", "_1"] : f32
// WGSL-NEXT:      %w = sarek.payload %s "Rect" 0 path ["Rect_v_0"] : f32
// WGSL-NEXT:      %h = sarek.payload %s "Rect" 1 path ["Rect_v_1"] : f32
// CHECK-NEXT:     %a = sarek.binop mul %w, %h : f32
// CHECK:        default {
// CHECK:      %p = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
// CHECK-NEXT:   case "Rect" {
// An unused binder (here `_`) gets no read.
// C-NEXT:         %w_1 = sarek.payload %s "Rect" 0 path ["data", "Rect_v", "_0"] : f32
// WGSL-NEXT:      %w_1 = sarek.payload %s "Rect" 0 path ["Rect_v_0"] : f32
// GLSL-NEXT:      %w_1 = sarek.payload %s "Rect" 0 path ["Rect_v", "_0"] : f32
// CHECK-NEXT:     sarek.yield %w_1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   case "Circle" {
// CHECK-NEXT:     %r_1 = sarek.payload %s "Circle" 0 path
// CHECK-NEXT:     sarek.yield %r_1 : f32

// -----
// Nested matches: the inner scrutinee is an outer payload read, each binder is read exactly once, in its
// own case; an inner binder with an outer binder's name reads its own scrutinee (no capture).
builtin.module {
  sarek.variant @inner {Val(f32), None}
  sarek.record @box {v : f32}
  sarek.variant @outer {Wrap(!sarek.variant<@inner>, f32), Nothing}
  sarek.kernel @k(%s : !sarek.variant<@outer> "s", %out : !sarek.vec<f32> "out") {
    %i = sarek.constant 0 : i32
    %o = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.match %s : !sarek.variant<@outer> {
      case "Wrap"(%in : !sarek.variant<@inner> "x", %x : f32 "x") {
        sarek.match %in : !sarek.variant<@inner> {
          case "Val"(%x2 : f32 "x") {
            %sum = sarek.binop add %x2, %x : f32
            sarek.store %o, %sum : !sarek.ref<f32>
          }
          default {
          }
        }
      }
      default {
      }
    }
  }
}
// CHECK:      case "Wrap" {
// C-NEXT:       %in = sarek.payload %s "Wrap" 0 path ["data", "Wrap_v", "_0"] : !sarek.variant<@inner>
// C-NEXT:       %x = sarek.payload %s "Wrap" 1 path ["data", "Wrap_v", "_1"] : f32
// WGSL-NEXT:    %in = sarek.payload %s "Wrap" 0 path ["Wrap_v_0"] : !sarek.variant<@inner>
// WGSL-NEXT:    %x = sarek.payload %s "Wrap" 1 path ["Wrap_v_1"] : f32
// GLSL-NEXT:    %in = sarek.payload %s "Wrap" 0 path ["Wrap_v", "_0"] : !sarek.variant<@inner>
// GLSL-NEXT:    %x = sarek.payload %s "Wrap" 1 path ["Wrap_v", "_1"] : f32
// CHECK-NEXT:   sarek.match %in : !sarek.variant<@inner> {
// CHECK-NEXT:     case "Val" {
// C-NEXT:           %x2 = sarek.payload %in "Val" 0 path ["data", "Val_v"] : f32
// GLSL-NEXT:        %x2 = sarek.payload %in "Val" 0 path ["Val_v"] : f32
// WGSL-NEXT:        %x2 = sarek.payload %in "Val" 0 path ["Val_v"] : f32
// CHECK-NEXT:       %sum = sarek.binop add %x2, %x : f32

// -----
// A `default` binder is the whole scrutinee.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.helper @id(%v : !sarek.variant<@opt> "v") -> !sarek.variant<@opt> {
    %r = sarek.match_expr %v : !sarek.variant<@opt> -> !sarek.variant<@opt> {
      default(%all : !sarek.variant<@opt> "all") {
        sarek.yield %all : !sarek.variant<@opt>
      }
    }
    sarek.return %r : !sarek.variant<@opt>
  }
}
// CHECK:      %r = sarek.match_expr %v : !sarek.variant<@opt> -> !sarek.variant<@opt> {
// CHECK-NEXT:   default {
// CHECK-NEXT:     sarek.yield %v : !sarek.variant<@opt>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----
// Payload reads already in the IR get their path.
builtin.module {
  sarek.variant @pair {P(i32, i32)}
  sarek.helper @snd(%v : !sarek.variant<@pair> "v") -> i32 {
    %b = sarek.payload %v "P" 1 : i32
    sarek.return %b : i32
  }
}
// C:    %b = sarek.payload %v "P" 1 path ["data", "P_v", "_1"] : i32
// GLSL: %b = sarek.payload %v "P" 1 path ["P_v", "_1"] : i32
// WGSL: %b = sarek.payload %v "P" 1 path ["P_v_1"] : i32

// -----
// A scrutinee computed by an atomic would be executed once per re-emitted copy: refused.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%c : !sarek.vec<i32> "c", %out : !sarek.vec<i32> "out") {
    %i = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%c, %i, %one) : (!sarek.vec<i32>, i32, i32) -> i32 loc("m.py":4:12)
    %s = sarek.make_variant @opt "Some"(%old)
    %o = sarek.elem_ref %out[%i] : !sarek.vec<i32>
    sarek.match %s : !sarek.variant<@opt> {
      case "Some"(%x : i32 "x") {
        sarek.store %o, %x : !sarek.ref<i32>
      }
      default {
      }
    }
  }
}
// CHECK: m.py:4:12: error: match on a scrutinee computed by an atomic or native operation binds payloads of 'Some'; bind the scrutinee with a let first

// -----
// Bound to a let first, the atomic runs once: accepted.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%c : !sarek.vec<i32> "c", %out : !sarek.vec<i32> "out") {
    %i = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%c, %i, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %s0 = sarek.make_variant @opt "Some"(%old)
    %s = sarek.let "s" %s0 : !sarek.variant<@opt>
    %o = sarek.elem_ref %out[%i] : !sarek.vec<i32>
    sarek.match %s : !sarek.variant<@opt> {
      case "Some"(%x : i32 "x") {
        sarek.store %o, %x : !sarek.ref<i32>
      }
      default {
      }
    }
  }
}
// CHECK:      case "Some" {
// CHECK-NEXT:   %x = sarek.payload %s "Some" 0 path

// -----
// The same through a helper that performs the atomic.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.helper @bump(%c : !sarek.vec<i32> "c") -> !sarek.variant<@opt> {
    %i = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_inc"(%c, %i) : (!sarek.vec<i32>, i32) -> i32
    %s = sarek.make_variant @opt "Some"(%old)
    sarek.return %s : !sarek.variant<@opt>
  }
  sarek.kernel @k(%c : !sarek.vec<i32> "c") {
    %s = sarek.call @bump(%c) : (!sarek.vec<i32>) -> !sarek.variant<@opt> loc("m.py":9:7)
    %r = sarek.match_expr %s : !sarek.variant<@opt> -> i32 {
      case "Some"(%x : i32 "x") {
        sarek.yield %x : i32
      }
      default {
        %z = sarek.constant 0 : i32
        sarek.yield %z : i32
      }
    }
  }
}
// CHECK: m.py:9:7: error: match on a scrutinee computed by an atomic or native operation binds payloads of 'Some'
