// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Every binop kind on the types it accepts.
sarek.kernel @binops(%i : i32 "i", %j : i32 "j", %l : i64 "l", %h : f16 "h", %x : f32 "x", %d : f64 "d", %p : i1 "p", %q : i1 "q") {
  %add1 = sarek.binop add %i, %i : i32
  %add2 = sarek.binop add %l, %l : i64
  %add3 = sarek.binop add %h, %h : f16
  %add4 = sarek.binop add %x, %x : f32
  %add5 = sarek.binop add %d, %d : f64
  %sub6 = sarek.binop sub %i, %i : i32
  %sub7 = sarek.binop sub %l, %l : i64
  %sub8 = sarek.binop sub %h, %h : f16
  %sub9 = sarek.binop sub %x, %x : f32
  %sub10 = sarek.binop sub %d, %d : f64
  %mul11 = sarek.binop mul %i, %i : i32
  %mul12 = sarek.binop mul %l, %l : i64
  %mul13 = sarek.binop mul %h, %h : f16
  %mul14 = sarek.binop mul %x, %x : f32
  %mul15 = sarek.binop mul %d, %d : f64
  %div16 = sarek.binop div %i, %i : i32
  %div17 = sarek.binop div %l, %l : i64
  %div18 = sarek.binop div %h, %h : f16
  %div19 = sarek.binop div %x, %x : f32
  %div20 = sarek.binop div %d, %d : f64
  %rem21 = sarek.binop rem %i, %j : i32
  %rem22 = sarek.binop rem %l, %l : i64
  %eq23 = sarek.binop eq %i, %i : i32
  %eq24 = sarek.binop eq %l, %l : i64
  %eq25 = sarek.binop eq %x, %x : f32
  %eq26 = sarek.binop eq %d, %d : f64
  %eq27 = sarek.binop eq %p, %p : i1
  %ne28 = sarek.binop ne %i, %i : i32
  %ne29 = sarek.binop ne %l, %l : i64
  %ne30 = sarek.binop ne %x, %x : f32
  %ne31 = sarek.binop ne %d, %d : f64
  %ne32 = sarek.binop ne %p, %p : i1
  %lt33 = sarek.binop lt %i, %i : i32
  %lt34 = sarek.binop lt %l, %l : i64
  %lt35 = sarek.binop lt %h, %h : f16
  %lt36 = sarek.binop lt %d, %d : f64
  %le37 = sarek.binop le %i, %i : i32
  %le38 = sarek.binop le %l, %l : i64
  %le39 = sarek.binop le %h, %h : f16
  %le40 = sarek.binop le %d, %d : f64
  %gt41 = sarek.binop gt %i, %i : i32
  %gt42 = sarek.binop gt %l, %l : i64
  %gt43 = sarek.binop gt %h, %h : f16
  %gt44 = sarek.binop gt %d, %d : f64
  %ge45 = sarek.binop ge %i, %i : i32
  %ge46 = sarek.binop ge %l, %l : i64
  %ge47 = sarek.binop ge %h, %h : f16
  %ge48 = sarek.binop ge %d, %d : f64
  %and49 = sarek.binop and %p, %q : i1
  %or50 = sarek.binop or %p, %q : i1
  %shl51 = sarek.binop shl %i, %j : i32
  %shl52 = sarek.binop shl %l, %l : i64
  %shr53 = sarek.binop shr %i, %j : i32
  %shr54 = sarek.binop shr %l, %l : i64
  %bitand55 = sarek.binop bitand %i, %j : i32
  %bitand56 = sarek.binop bitand %l, %l : i64
  %bitor57 = sarek.binop bitor %i, %j : i32
  %bitor58 = sarek.binop bitor %l, %l : i64
  %bitxor59 = sarek.binop bitxor %i, %j : i32
  %bitxor60 = sarek.binop bitxor %l, %l : i64
}
// CHECK:      sarek.kernel @binops(%i: i32 "i", %j: i32 "j", %l: i64 "l", %h: f16 "h", %x: f32 "x", %d: f64 "d", %p: i1 "p", %q: i1 "q") {
// CHECK-NEXT:   %add1 = sarek.binop add %i, %i : i32
// CHECK-NEXT:   %add2 = sarek.binop add %l, %l : i64
// CHECK-NEXT:   %add3 = sarek.binop add %h, %h : f16
// CHECK-NEXT:   %add4 = sarek.binop add %x, %x : f32
// CHECK-NEXT:   %add5 = sarek.binop add %d, %d : f64
// CHECK-NEXT:   %sub6 = sarek.binop sub %i, %i : i32
// CHECK-NEXT:   %sub7 = sarek.binop sub %l, %l : i64
// CHECK-NEXT:   %sub8 = sarek.binop sub %h, %h : f16
// CHECK-NEXT:   %sub9 = sarek.binop sub %x, %x : f32
// CHECK-NEXT:   %sub10 = sarek.binop sub %d, %d : f64
// CHECK-NEXT:   %mul11 = sarek.binop mul %i, %i : i32
// CHECK-NEXT:   %mul12 = sarek.binop mul %l, %l : i64
// CHECK-NEXT:   %mul13 = sarek.binop mul %h, %h : f16
// CHECK-NEXT:   %mul14 = sarek.binop mul %x, %x : f32
// CHECK-NEXT:   %mul15 = sarek.binop mul %d, %d : f64
// CHECK-NEXT:   %div16 = sarek.binop div %i, %i : i32
// CHECK-NEXT:   %div17 = sarek.binop div %l, %l : i64
// CHECK-NEXT:   %div18 = sarek.binop div %h, %h : f16
// CHECK-NEXT:   %div19 = sarek.binop div %x, %x : f32
// CHECK-NEXT:   %div20 = sarek.binop div %d, %d : f64
// CHECK-NEXT:   %rem21 = sarek.binop rem %i, %j : i32
// CHECK-NEXT:   %rem22 = sarek.binop rem %l, %l : i64
// CHECK-NEXT:   %eq23 = sarek.binop eq %i, %i : i32
// CHECK-NEXT:   %eq24 = sarek.binop eq %l, %l : i64
// CHECK-NEXT:   %eq25 = sarek.binop eq %x, %x : f32
// CHECK-NEXT:   %eq26 = sarek.binop eq %d, %d : f64
// CHECK-NEXT:   %eq27 = sarek.binop eq %p, %p : i1
// CHECK-NEXT:   %ne28 = sarek.binop ne %i, %i : i32
// CHECK-NEXT:   %ne29 = sarek.binop ne %l, %l : i64
// CHECK-NEXT:   %ne30 = sarek.binop ne %x, %x : f32
// CHECK-NEXT:   %ne31 = sarek.binop ne %d, %d : f64
// CHECK-NEXT:   %ne32 = sarek.binop ne %p, %p : i1
// CHECK-NEXT:   %lt33 = sarek.binop lt %i, %i : i32
// CHECK-NEXT:   %lt34 = sarek.binop lt %l, %l : i64
// CHECK-NEXT:   %lt35 = sarek.binop lt %h, %h : f16
// CHECK-NEXT:   %lt36 = sarek.binop lt %d, %d : f64
// CHECK-NEXT:   %le37 = sarek.binop le %i, %i : i32
// CHECK-NEXT:   %le38 = sarek.binop le %l, %l : i64
// CHECK-NEXT:   %le39 = sarek.binop le %h, %h : f16
// CHECK-NEXT:   %le40 = sarek.binop le %d, %d : f64
// CHECK-NEXT:   %gt41 = sarek.binop gt %i, %i : i32
// CHECK-NEXT:   %gt42 = sarek.binop gt %l, %l : i64
// CHECK-NEXT:   %gt43 = sarek.binop gt %h, %h : f16
// CHECK-NEXT:   %gt44 = sarek.binop gt %d, %d : f64
// CHECK-NEXT:   %ge45 = sarek.binop ge %i, %i : i32
// CHECK-NEXT:   %ge46 = sarek.binop ge %l, %l : i64
// CHECK-NEXT:   %ge47 = sarek.binop ge %h, %h : f16
// CHECK-NEXT:   %ge48 = sarek.binop ge %d, %d : f64
// CHECK-NEXT:   %and49 = sarek.binop and %p, %q : i1
// CHECK-NEXT:   %or50 = sarek.binop or %p, %q : i1
// CHECK-NEXT:   %shl51 = sarek.binop shl %i, %j : i32
// CHECK-NEXT:   %shl52 = sarek.binop shl %l, %l : i64
// CHECK-NEXT:   %shr53 = sarek.binop shr %i, %j : i32
// CHECK-NEXT:   %shr54 = sarek.binop shr %l, %l : i64
// CHECK-NEXT:   %bitand55 = sarek.binop bitand %i, %j : i32
// CHECK-NEXT:   %bitand56 = sarek.binop bitand %l, %l : i64
// CHECK-NEXT:   %bitor57 = sarek.binop bitor %i, %j : i32
// CHECK-NEXT:   %bitor58 = sarek.binop bitor %l, %l : i64
// CHECK-NEXT:   %bitxor59 = sarek.binop bitxor %i, %j : i32
// CHECK-NEXT:   %bitxor60 = sarek.binop bitxor %l, %l : i64
// CHECK-NEXT: }

// -----

// Every unop kind on the types it accepts.
sarek.kernel @unops(%i : i32 "i", %l : i64 "l", %h : f16 "h", %x : f32 "x", %d : f64 "d", %p : i1 "p") {
  %neg61 = sarek.unop neg %i : i32
  %neg62 = sarek.unop neg %l : i64
  %neg63 = sarek.unop neg %h : f16
  %neg64 = sarek.unop neg %x : f32
  %neg65 = sarek.unop neg %d : f64
  %not66 = sarek.unop not %p : i1
  %bitnot67 = sarek.unop bitnot %i : i32
  %bitnot68 = sarek.unop bitnot %l : i64
}
// CHECK:      sarek.kernel @unops(%i: i32 "i", %l: i64 "l", %h: f16 "h", %x: f32 "x", %d: f64 "d", %p: i1 "p") {
// CHECK-NEXT:   %neg61 = sarek.unop neg %i : i32
// CHECK-NEXT:   %neg62 = sarek.unop neg %l : i64
// CHECK-NEXT:   %neg63 = sarek.unop neg %h : f16
// CHECK-NEXT:   %neg64 = sarek.unop neg %x : f32
// CHECK-NEXT:   %neg65 = sarek.unop neg %d : f64
// CHECK-NEXT:   %not66 = sarek.unop not %p : i1
// CHECK-NEXT:   %bitnot67 = sarek.unop bitnot %i : i32
// CHECK-NEXT:   %bitnot68 = sarek.unop bitnot %l : i64
// CHECK-NEXT: }

// -----

// Casts between every pair of convertible scalar types.
sarek.kernel @casts(%p : i1 "p", %i : i32 "i", %l : i64 "l", %h : f16 "h", %x : f32 "x", %d : f64 "d") {
  %c69 = sarek.cast %p : i1 to i1
  %c70 = sarek.cast %p : i1 to i32
  %c71 = sarek.cast %p : i1 to i64
  %c72 = sarek.cast %p : i1 to f16
  %c73 = sarek.cast %p : i1 to f32
  %c74 = sarek.cast %p : i1 to f64
  %c75 = sarek.cast %i : i32 to i1
  %c76 = sarek.cast %i : i32 to i32
  %c77 = sarek.cast %i : i32 to i64
  %c78 = sarek.cast %i : i32 to f16
  %c79 = sarek.cast %i : i32 to f32
  %c80 = sarek.cast %i : i32 to f64
  %c81 = sarek.cast %l : i64 to i1
  %c82 = sarek.cast %l : i64 to i32
  %c83 = sarek.cast %l : i64 to i64
  %c84 = sarek.cast %l : i64 to f16
  %c85 = sarek.cast %l : i64 to f32
  %c86 = sarek.cast %l : i64 to f64
  %c87 = sarek.cast %h : f16 to i1
  %c88 = sarek.cast %h : f16 to i32
  %c89 = sarek.cast %h : f16 to i64
  %c90 = sarek.cast %h : f16 to f16
  %c91 = sarek.cast %h : f16 to f32
  %c92 = sarek.cast %h : f16 to f64
  %c93 = sarek.cast %x : f32 to i1
  %c94 = sarek.cast %x : f32 to i32
  %c95 = sarek.cast %x : f32 to i64
  %c96 = sarek.cast %x : f32 to f16
  %c97 = sarek.cast %x : f32 to f32
  %c98 = sarek.cast %x : f32 to f64
  %c99 = sarek.cast %d : f64 to i1
  %c100 = sarek.cast %d : f64 to i32
  %c101 = sarek.cast %d : f64 to i64
  %c102 = sarek.cast %d : f64 to f16
  %c103 = sarek.cast %d : f64 to f32
  %c104 = sarek.cast %d : f64 to f64
}
// CHECK:      sarek.kernel @casts(%p: i1 "p", %i: i32 "i", %l: i64 "l", %h: f16 "h", %x: f32 "x", %d: f64 "d") {
// CHECK-NEXT:   %c69 = sarek.cast %p : i1 to i1
// CHECK-NEXT:   %c70 = sarek.cast %p : i1 to i32
// CHECK-NEXT:   %c71 = sarek.cast %p : i1 to i64
// CHECK-NEXT:   %c72 = sarek.cast %p : i1 to f16
// CHECK-NEXT:   %c73 = sarek.cast %p : i1 to f32
// CHECK-NEXT:   %c74 = sarek.cast %p : i1 to f64
// CHECK-NEXT:   %c75 = sarek.cast %i : i32 to i1
// CHECK-NEXT:   %c76 = sarek.cast %i : i32 to i32
// CHECK-NEXT:   %c77 = sarek.cast %i : i32 to i64
// CHECK-NEXT:   %c78 = sarek.cast %i : i32 to f16
// CHECK-NEXT:   %c79 = sarek.cast %i : i32 to f32
// CHECK-NEXT:   %c80 = sarek.cast %i : i32 to f64
// CHECK-NEXT:   %c81 = sarek.cast %l : i64 to i1
// CHECK-NEXT:   %c82 = sarek.cast %l : i64 to i32
// CHECK-NEXT:   %c83 = sarek.cast %l : i64 to i64
// CHECK-NEXT:   %c84 = sarek.cast %l : i64 to f16
// CHECK-NEXT:   %c85 = sarek.cast %l : i64 to f32
// CHECK-NEXT:   %c86 = sarek.cast %l : i64 to f64
// CHECK-NEXT:   %c87 = sarek.cast %h : f16 to i1
// CHECK-NEXT:   %c88 = sarek.cast %h : f16 to i32
// CHECK-NEXT:   %c89 = sarek.cast %h : f16 to i64
// CHECK-NEXT:   %c90 = sarek.cast %h : f16 to f16
// CHECK-NEXT:   %c91 = sarek.cast %h : f16 to f32
// CHECK-NEXT:   %c92 = sarek.cast %h : f16 to f64
// CHECK-NEXT:   %c93 = sarek.cast %x : f32 to i1
// CHECK-NEXT:   %c94 = sarek.cast %x : f32 to i32
// CHECK-NEXT:   %c95 = sarek.cast %x : f32 to i64
// CHECK-NEXT:   %c96 = sarek.cast %x : f32 to f16
// CHECK-NEXT:   %c97 = sarek.cast %x : f32 to f32
// CHECK-NEXT:   %c98 = sarek.cast %x : f32 to f64
// CHECK-NEXT:   %c99 = sarek.cast %d : f64 to i1
// CHECK-NEXT:   %c100 = sarek.cast %d : f64 to i32
// CHECK-NEXT:   %c101 = sarek.cast %d : f64 to i64
// CHECK-NEXT:   %c102 = sarek.cast %d : f64 to f16
// CHECK-NEXT:   %c103 = sarek.cast %d : f64 to f32
// CHECK-NEXT:   %c104 = sarek.cast %d : f64 to f64
// CHECK-NEXT: }
