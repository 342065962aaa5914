// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=cuda}' | filecheck %s --check-prefix=LOWER
// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=cuda},sarek-c-form-expressions' | filecheck %s --check-prefix=FORM

// sarek-lower-cfamily makes one temporary per value (`sarek_c.temp`), a value if/match an if/switch
// assigning one (`sarek_c.value`, binders `sarek_c.binder`), and says which calls and templates touch memory
// (`sarek_c.effects`); sarek-c-form-expressions then folds them.
builtin.module {
  sarek.variant @shape {Circle(f32), Square(f32)}
  sarek.helper @bump(%a : !sarek.vec<i32> "a") -> i32 {
    %z = sarek.constant 0 : i32
    %r = sarek.intrinsic "atomic_add"(%a, %z, %z) : (!sarek.vec<i32>, i32, i32) -> i32
    sarek.return %r : i32
  }
  sarek.kernel @k(%v : !sarek.vec<i32> "v", %s : !sarek.vec<!sarek.variant<@shape>> "s", %o : !sarek.vec<f32> "o") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %lt = sarek.binop lt %t, %c0 : i32
    %r = sarek.if_expr %lt -> i32 {
      %n = sarek.unop neg %t : i32
      sarek.yield %n : i32
    } else {
      sarek.yield %t : i32
    }
    %sh = sarek.array_read %s[%t] : !sarek.vec<!sarek.variant<@shape>>
    %a = sarek.match_expr %sh : !sarek.variant<@shape> -> f32 {
      case "Circle"(%rad: f32 "rad") {
        %q = sarek.binop mul %rad, %rad : f32
        sarek.yield %q : f32
      }
      case "Square"(%w: f32 "w") {
        sarek.yield %w : f32
      }
    }
    %p = sarek.elem_ref %o[%r] : !sarek.vec<f32>
    sarek.store %p, %a : !sarek.ref<f32>
    %b = sarek.call @bump(%v) : (!sarek.vec<i32>) -> i32
    %pv = sarek.elem_ref %v[%t] : !sarek.vec<i32>
    sarek.store %pv, %b : !sarek.ref<i32>
  }
}
// LOWER:      sarek_c.func "__device__" "int" @bump(
// LOWER:        sarek_c.expr "atomicAdd(&{0}, {1})"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}
// LOWER:      sarek_c.func "extern \22C\22 __global__" "void" @k(
// LOWER-NEXT:   %[[TID:.*]] = sarek_c.lit "(int)threadIdx.x" : "int"
// LOWER-NEXT:   %{{.*}} = sarek_c.decl "sarek_t" %[[TID]] : "int" attributes {sarek_c.temp = "t"}
// LOWER:        %{{.*}} = sarek_c.decl "sarek_c0" %{{.*}} : "int" attributes {sarek_c.temp = "c0"}
// LOWER:        %[[R:.*]] = sarek_c.decl "sarek_r" : "int" attributes {sarek_c.temp = "r"}
// LOWER-NEXT:   sarek_c.if %{{.*}} attributes {sarek_c.value} {
// LOWER:          sarek_c.decl "sarek_n" %{{.*}} : "int" attributes {sarek_c.temp = "n"}
// LOWER-NEXT:     sarek_c.assign %[[R]] = %{{.*}}
// LOWER:        sarek_c.switch %{{.*}} attributes {sarek_c.value} case "Circle" {
// LOWER:          sarek_c.decl "rad" %{{.*}} : "float" attributes {sarek_c.binder}
// LOWER:        sarek_c.call "bump"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}

// FORM:       sarek_c.func "extern \22C\22 __global__" "void" @k(
// FORM-NEXT:    %[[TID:.*]] = sarek_c.lit "(int)threadIdx.x" : "int"
// FORM:         %[[IDX:.*]] = sarek_c.select %{{.*}}, %{{.*}}, %[[TID]] : "int"
// FORM-NEXT:    %[[SH:.*]] = sarek_c.index %{{.*}}[%[[TID]]] : "shape"
// FORM-NEXT:    %[[SHT:.*]] = sarek_c.decl "sarek_sh" %[[SH]] : "shape" attributes {sarek_c.temp = "sh"}
// FORM:         %[[AREA:.*]] = sarek_c.select %{{.*}}, %{{.*}}, %{{.*}} : "float"
// FORM-NEXT:    %[[P:.*]] = sarek_c.index %{{.*}}[%[[IDX]]] : "float"
// FORM-NEXT:    sarek_c.assign %[[P]] = %[[AREA]]
// FORM-NEXT:    %[[B:.*]] = sarek_c.call "bump"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}
// FORM-NEXT:    %[[PV:.*]] = sarek_c.index %{{.*}}[%[[TID]]] : "int"
// FORM-NEXT:    sarek_c.assign %[[PV]] = %[[B]]
// FORM-NEXT:  }
