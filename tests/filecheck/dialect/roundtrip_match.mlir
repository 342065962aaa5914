// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Statement match: cases with binders, a case without binders, `_` binders, an empty case, a default.
sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @match_stmt(%s : !sarek.variant<@shape> "s", %out : !sarek.vec<f32> "out") {
  %c0 = sarek.constant 0 : i32
  %o = sarek.elem_ref %out[%c0] : !sarek.vec<f32>
  sarek.match %s : !sarek.variant<@shape> {
    case "Circle"(%r: f32 "r") {
      sarek.store %o, %r : !sarek.ref<f32>
    }
    case "Rect"(%w: f32 "w", %0: f32 "_") {
      sarek.store %o, %w : !sarek.ref<f32>
    }
    case "Empty" {
    }
  }
  sarek.match %s : !sarek.variant<@shape> {
    case "Rect" {
      sarek.barrier
    }
    default {
      sarek.mem_fence
    }
  }
}
// CHECK:      sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
// CHECK-NEXT: sarek.kernel @match_stmt(%s: !sarek.variant<@shape> "s", %out: !sarek.vec<f32> "out") {
// CHECK-NEXT:   %c0 = sarek.constant 0 : i32
// CHECK-NEXT:   %o = sarek.elem_ref %out[%c0] : !sarek.vec<f32>
// CHECK-NEXT:   sarek.match %s : !sarek.variant<@shape> {
// CHECK-NEXT:     case "Circle"(%r: f32 "r") {
// CHECK-NEXT:       sarek.store %o, %r : !sarek.ref<f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     case "Rect"(%w: f32 "w", %0: f32 "_") {
// CHECK-NEXT:       sarek.store %o, %w : !sarek.ref<f32>
// CHECK-NEXT:     }
// CHECK-NEXT:     case "Empty" {
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.match %s : !sarek.variant<@shape> {
// CHECK-NEXT:     case "Rect" {
// CHECK-NEXT:       sarek.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       sarek.mem_fence
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A default case with one binder binds the whole scrutinee; a match with only a default.
sarek.variant @opt {None, Some(i32)}
sarek.kernel @match_default(%v : !sarek.variant<@opt> "v") {
  sarek.match %v : !sarek.variant<@opt> {
    case "None" {
    }
    default(%whole: !sarek.variant<@opt> "whole") {
      %p = sarek.payload %whole "Some" 0 : i32
    }
  }
  sarek.match %v : !sarek.variant<@opt> {
    default {
    }
  }
}
// CHECK:      sarek.variant @opt {None, Some(i32)}
// CHECK-NEXT: sarek.kernel @match_default(%v: !sarek.variant<@opt> "v") {
// CHECK-NEXT:   sarek.match %v : !sarek.variant<@opt> {
// CHECK-NEXT:     case "None" {
// CHECK-NEXT:     }
// CHECK-NEXT:     default(%whole: !sarek.variant<@opt> "whole") {
// CHECK-NEXT:       %p = sarek.payload %whole "Some" 0 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.match %v : !sarek.variant<@opt> {
// CHECK-NEXT:     default {
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Expression match: every case yields the result; binders, default with and without a binder.
sarek.record @point {x : f32, y : f32}
sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty, At(!sarek.record<@point>)}
sarek.kernel @match_expr(%s : !sarek.variant<@shape> "s") {
  %a = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
    case "Circle"(%r: f32 "r") {
      %rr = sarek.binop mul %r, %r : f32
      sarek.yield %rr : f32
    }
    case "Rect"(%w: f32 "w", %h: f32 "h") {
      %wh = sarek.binop mul %w, %h : f32
      sarek.yield %wh : f32
    }
    case "At"(%p: !sarek.record<@point> "p") {
      %px = sarek.field %p "x" : f32
      sarek.yield %px : f32
    }
    case "Empty" {
      %z = sarek.constant 0.0 : f32
      sarek.yield %z : f32
    }
  }
  %b = sarek.match_expr %s : !sarek.variant<@shape> -> i1 {
    case "Empty" {
      %t = sarek.constant true
      sarek.yield %t : i1
    }
    default {
      %f = sarek.constant false
      sarek.yield %f : i1
    }
  }
  %c = sarek.match_expr %s : !sarek.variant<@shape> -> !sarek.variant<@shape> {
    case "Circle" {
      %e = sarek.make_variant @shape "Empty"()
      sarek.yield %e : !sarek.variant<@shape>
    }
    default(%other: !sarek.variant<@shape> "other") {
      sarek.yield %other : !sarek.variant<@shape>
    }
  }
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty, At(!sarek.record<@point>)}
// CHECK-NEXT: sarek.kernel @match_expr(%s: !sarek.variant<@shape> "s") {
// CHECK-NEXT:   %a = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
// CHECK-NEXT:     case "Circle"(%r: f32 "r") {
// CHECK-NEXT:       %rr = sarek.binop mul %r, %r : f32
// CHECK-NEXT:       sarek.yield %rr : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     case "Rect"(%w: f32 "w", %h: f32 "h") {
// CHECK-NEXT:       %wh = sarek.binop mul %w, %h : f32
// CHECK-NEXT:       sarek.yield %wh : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     case "At"(%p: !sarek.record<@point> "p") {
// CHECK-NEXT:       %px = sarek.field %p "x" : f32
// CHECK-NEXT:       sarek.yield %px : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     case "Empty" {
// CHECK-NEXT:       %z = sarek.constant 0.0 : f32
// CHECK-NEXT:       sarek.yield %z : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %b = sarek.match_expr %s : !sarek.variant<@shape> -> i1 {
// CHECK-NEXT:     case "Empty" {
// CHECK-NEXT:       %t = sarek.constant true
// CHECK-NEXT:       sarek.yield %t : i1
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       %f = sarek.constant false
// CHECK-NEXT:       sarek.yield %f : i1
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %c = sarek.match_expr %s : !sarek.variant<@shape> -> !sarek.variant<@shape> {
// CHECK-NEXT:     case "Circle" {
// CHECK-NEXT:       %e = sarek.make_variant @shape "Empty"()
// CHECK-NEXT:       sarek.yield %e : !sarek.variant<@shape>
// CHECK-NEXT:     }
// CHECK-NEXT:     default(%other: !sarek.variant<@shape> "other") {
// CHECK-NEXT:       sarek.yield %other : !sarek.variant<@shape>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
