// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// match and match_expr: constructors, binders, the '_' case, region arguments and yields.

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
  }
}
// CHECK: match needs at least one case

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    case "Empty" {
    }
    case "Empty" {
    }
  }
}
// CHECK: match: constructor 'Empty' matched twice

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    default {
    }
    case "Empty" {
    }
  }
}
// CHECK: match: the '_' case must be the last

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    default(%a: !sarek.variant<@shape> "a", %b: !sarek.variant<@shape> "b") {
    }
  }
}
// CHECK: match: a '_' case binds at most the whole scrutinee

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    default(%a: f32 "a") {
    }
  }
}
// CHECK: match: case '_' region must take arguments (!sarek.variant<@shape>)

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    case "Square" {
    }
  }
}
// CHECK: match: variant @shape has no constructor 'Square'

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    case "Rect"(%w: f32 "w") {
    }
  }
}
// CHECK: match: constructor 'Rect' has 2 payload(s), the case binds 1

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    case "Circle"(%r: i32 "r") {
    }
  }
}
// CHECK: match: case 'Circle' region must take arguments (f32)

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    case "Circle"(%r: f32 "") {
    }
  }
}
// CHECK: match binder name must not be empty

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  "sarek.match"(%s) <{cases = ["Circle", "Empty"], binders = [[]]}> ({
  }) : (!sarek.variant<@shape>) -> ()
}
// CHECK: Region 'case_regions[0]' at position 0 expected a single block, but got 0 blocks

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  "sarek.match"(%s) <{cases = ["Circle"], binders = [[]]}> ({
  ^bb0(%r: f32):
  }) : (!sarek.variant<@shape>) -> ()
}
// CHECK: match: case 'Circle' region must take arguments ()

// -----

sarek.kernel @k(%s : !sarek.variant<@nowhere> "s") {
  sarek.match %s : !sarek.variant<@nowhere> {
    default {
    }
  }
}
// CHECK: variant type @nowhere is not declared by a sarek.variant

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
    case "Circle"(%r: f32 "r") {
      sarek.yield %r : f32
    }
    default {
    }
  }
}
// CHECK: Operation sarek.match_expr contains empty block in single-block region that expects at least a terminator

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s", %i : i32 "i") {
  %r = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
    case "Circle"(%r: f32 "r") {
      sarek.yield %r : f32
    }
    default {
      sarek.yield %i : i32
    }
  }
}
// CHECK: match_expr case '_' yields i32, result is f32

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
    case "Rect"(%w: f32 "w", %h: f32 "h", %d: f32 "d") {
      sarek.yield %w : f32
    }
  }
}
// CHECK: match_expr: constructor 'Rect' has 2 payload(s), the case binds 3

// -----

sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
  }
}
// CHECK: match_expr needs at least one case
