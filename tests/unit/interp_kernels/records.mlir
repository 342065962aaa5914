// the seed's record cases: a shared array of records is writable per slot (slots independent, zeroed), a record
// local never aliases vector storage, v[i].f = e writes storage in place, nested records copy deeply
builtin.module {
  sarek.record @pt {x : f32, y : f32}
  sarek.record @seg {a : !sarek.record<@pt>, tag : i32}
  sarek.helper @bump(%s : !sarek.record<@seg> "s") -> f32 {
    %m = sarek.let_mut "m" %s : !sarek.record<@seg>
    %fa = sarek.field_ref %m "a" : !sarek.ref<!sarek.record<@pt>>
    %fx = sarek.field_ref %fa "x" : !sarek.ref<f32>
    %h = sarek.constant 100.0 : f32
    sarek.store %fx, %h : !sarek.ref<f32>
    %mv = sarek.load %m : !sarek.ref<!sarek.record<@seg>>
    %ma = sarek.field %mv "a" : !sarek.record<@pt>
    %r = sarek.field %ma "x" : f32
    sarek.return %r : f32
  }
  sarek.kernel @records(%v : !sarek.vec<!sarek.record<@pt>> "v", %segs : !sarek.vec<!sarek.record<@seg>> "segs", %o : !sarek.vec<f32> "o") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %nt = sarek.intrinsic "block_dim_x"() : () -> i32
    %s = sarek.alloc_array "s"[%nt] : !sarek.array<!sarek.record<@pt>, shared>
    %c1 = sarek.constant 1 : i32
    %c4 = sarek.constant 4 : i32
    %ft = sarek.cast %t : i32 to f32
    %slot = sarek.elem_ref %s[%t] : !sarek.array<!sarek.record<@pt>, shared>
    %sx = sarek.field_ref %slot "x" : !sarek.ref<f32>
    sarek.store %sx, %ft : !sarek.ref<f32>
    sarek.barrier
    %t1 = sarek.binop add %t, %c1 : i32
    %nb = sarek.binop rem %t1, %nt : i32
    %other = sarek.array_read %s[%nb] : !sarek.array<!sarek.record<@pt>, shared>
    %ox = sarek.field %other "x" : f32
    %oy = sarek.field %other "y" : f32
    %e = sarek.array_read %v[%t] : !sarek.vec<!sarek.record<@pt>>
    %loc = sarek.let_mut "e" %e : !sarek.record<@pt>
    %lx = sarek.field_ref %loc "x" : !sarek.ref<f32>
    %c42 = sarek.constant 42.0 : f32
    sarek.store %lx, %c42 : !sarek.ref<f32>
    %ex = sarek.field %e "x" : f32
    %le = sarek.load %loc : !sarek.ref<!sarek.record<@pt>>
    %lex = sarek.field %le "x" : f32
    %vy = sarek.elem_ref %v[%t] : !sarek.vec<!sarek.record<@pt>>
    %vyf = sarek.field_ref %vy "y" : !sarek.ref<f32>
    %ny = sarek.binop add %ex, %lex : f32
    sarek.store %vyf, %ny : !sarek.ref<f32>
    %sg = sarek.array_read %segs[%t] : !sarek.vec<!sarek.record<@seg>>
    %b = sarek.call @bump(%sg) : (!sarek.record<@seg>) -> f32
    %sa = sarek.field %sg "a" : !sarek.record<@pt>
    %sax = sarek.field %sa "x" : f32
    %pseg = sarek.elem_ref %segs[%t] : !sarek.vec<!sarek.record<@seg>>
    %ptag = sarek.field_ref %pseg "tag" : !sarek.ref<i32>
    %tag = sarek.field %sg "tag" : i32
    %tag2 = sarek.binop add %tag, %t : i32
    sarek.store %ptag, %tag2 : !sarek.ref<i32>
    %c6 = sarek.constant 6 : i32
    %base = sarek.binop mul %t, %c6 : i32
    %p0 = sarek.elem_ref %o[%base] : !sarek.vec<f32>
    sarek.store %p0, %ox : !sarek.ref<f32>
    %b1 = sarek.binop add %base, %c1 : i32
    %p1 = sarek.elem_ref %o[%b1] : !sarek.vec<f32>
    sarek.store %p1, %oy : !sarek.ref<f32>
    %b2 = sarek.binop add %b1, %c1 : i32
    %p2 = sarek.elem_ref %o[%b2] : !sarek.vec<f32>
    sarek.store %p2, %ex : !sarek.ref<f32>
    %b3 = sarek.binop add %b2, %c1 : i32
    %p3 = sarek.elem_ref %o[%b3] : !sarek.vec<f32>
    sarek.store %p3, %lex : !sarek.ref<f32>
    %b4 = sarek.binop add %b3, %c1 : i32
    %p4 = sarek.elem_ref %o[%b4] : !sarek.vec<f32>
    sarek.store %p4, %b : !sarek.ref<f32>
    %b5 = sarek.binop add %b4, %c1 : i32
    %p5 = sarek.elem_ref %o[%b5] : !sarek.vec<f32>
    sarek.store %p5, %sax : !sarek.ref<f32>
  }
}
