// records and variants under divergent control flow: a helper returning different constructors per lane, a
// statement match with payload binders and a whole-scrutinee default binder, masked stores into a record local,
// records and variants stored into vectors
builtin.module {
  sarek.record @acc {sum : i32, n : i32}
  sarek.variant @res {Ok(i32), Err, Pair(!sarek.record<@acc>, f32)}
  sarek.helper @classify(%x : i32 "x") -> !sarek.variant<@res> {
    %c0 = sarek.constant 0 : i32
    %neg = sarek.binop lt %x, %c0 : i32
    sarek.if %neg {
      %e = sarek.make_variant @res "Err"()
      sarek.return %e : !sarek.variant<@res>
    }
    %c3 = sarek.constant 3 : i32
    %r3 = sarek.binop rem %x, %c3 : i32
    %z = sarek.binop eq %r3, %c0 : i32
    sarek.if %z {
      %c1 = sarek.constant 1 : i32
      %r = sarek.make_record @acc(%x, %c1)
      %f = sarek.cast %x : i32 to f32
      %half = sarek.constant 0.5 : f32
      %fh = sarek.binop mul %f, %half : f32
      %p = sarek.make_variant @res "Pair"(%r, %fh)
      sarek.return %p : !sarek.variant<@res>
    }
    %c2 = sarek.constant 2 : i32
    %d = sarek.binop mul %x, %c2 : i32
    %ok = sarek.make_variant @res "Ok"(%d)
    sarek.return %ok : !sarek.variant<@res>
  }
  sarek.kernel @aggregates(%x : !sarek.vec<i32> "x", %o : !sarek.vec<i32> "o", %st : !sarek.vec<!sarek.record<@acc>> "st", %vs : !sarek.vec<!sarek.variant<@res>> "vs") {
    %t = sarek.intrinsic "global_thread_id"() : () -> i32
    %xv = sarek.array_read %x[%t] : !sarek.vec<i32>
    %c = sarek.call @classify(%xv) : (i32) -> !sarek.variant<@res>
    %c0 = sarek.constant 0 : i32
    %z = sarek.make_record @acc(%c0, %c0)
    %a = sarek.let_mut "a" %z : !sarek.record<@acc>
    sarek.match %c : !sarek.variant<@res> {
      case "Ok"(%v: i32 "v") {
        %fs = sarek.field_ref %a "sum" : !sarek.ref<i32>
        sarek.store %fs, %v : !sarek.ref<i32>
      }
      case "Pair"(%r: !sarek.record<@acc> "r", %f: f32 "f") {
        sarek.store %a, %r : !sarek.ref<!sarek.record<@acc>>
        %fi = sarek.cast %f : f32 to i32
        %fn = sarek.field_ref %a "n" : !sarek.ref<i32>
        sarek.store %fn, %fi : !sarek.ref<i32>
      }
      default(%w: !sarek.variant<@res> "w") {
        %m1 = sarek.constant -1 : i32
        %fn = sarek.field_ref %a "n" : !sarek.ref<i32>
        sarek.store %fn, %m1 : !sarek.ref<i32>
        %pv = sarek.elem_ref %vs[%t] : !sarek.vec<!sarek.variant<@res>>
        sarek.store %pv, %w : !sarek.ref<!sarek.variant<@res>>
      }
    }
    %av = sarek.load %a : !sarek.ref<!sarek.record<@acc>>
    %ps = sarek.elem_ref %st[%t] : !sarek.vec<!sarek.record<@acc>>
    sarek.store %ps, %av : !sarek.ref<!sarek.record<@acc>>
    %c4 = sarek.constant 4 : i32
    %r4 = sarek.binop rem %t, %c4 : i32
    %keep = sarek.binop ne %r4, %c0 : i32
    sarek.if %keep {
      %pv = sarek.elem_ref %vs[%t] : !sarek.vec<!sarek.variant<@res>>
      sarek.store %pv, %c : !sarek.ref<!sarek.variant<@res>>
    }
    %s = sarek.field %av "sum" : i32
    %n = sarek.field %av "n" : i32
    %c2 = sarek.constant 2 : i32
    %j = sarek.binop mul %t, %c2 : i32
    %pj = sarek.elem_ref %o[%j] : !sarek.vec<i32>
    sarek.store %pj, %s : !sarek.ref<i32>
    %c1 = sarek.constant 1 : i32
    %j1 = sarek.binop add %j, %c1 : i32
    %pj1 = sarek.elem_ref %o[%j1] : !sarek.vec<i32>
    sarek.store %pj1, %n : !sarek.ref<i32>
  }
}
