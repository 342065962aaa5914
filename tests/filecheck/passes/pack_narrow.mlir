// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=wgsl}' --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl}' --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=cuda}' --split-input-file | filecheck %s --check-prefix=NATIVE

// A u8 vector becomes i32 words: a read is word >> (8 * (i & 3)) & 0xFF, a store clears and sets its byte
// with atomics (neighbouring lanes share the word); the kernel records the packed parameters. Other targets
// store u8 natively: the module is unchanged.
builtin.module {
  sarek.kernel @copy(%a : !sarek.vec<ui8> "a", %b : !sarek.vec<ui8> "b") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%i] : !sarek.vec<ui8>
    %p = sarek.elem_ref %b[%i] : !sarek.vec<ui8>
    sarek.store %p, %x : !sarek.ref<ui8>
  }
}
// CHECK:      sarek.kernel @copy(%a: !sarek.vec<i32> "a", %b: !sarek.vec<i32> "b") attributes {sarek.packed = {a = ui8, b = ui8}} {
// CHECK-NEXT:   %i = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT:   %0 = sarek.constant 2 : i32
// CHECK-NEXT:   %1 = sarek.binop shr %i, %0 : i32
// CHECK-NEXT:   %2 = sarek.array_read %a[%1] : !sarek.vec<i32>
// CHECK-NEXT:   %3 = sarek.constant 3 : i32
// CHECK-NEXT:   %4 = sarek.binop bitand %i, %3 : i32
// CHECK-NEXT:   %5 = sarek.constant 3 : i32
// CHECK-NEXT:   %6 = sarek.binop shl %4, %5 : i32
// CHECK-NEXT:   %7 = sarek.binop shr %2, %6 : i32
// CHECK-NEXT:   %8 = sarek.constant 255 : i32
// CHECK-NEXT:   %x = sarek.binop bitand %7, %8 : i32
// CHECK:        %{{.*}} = sarek.intrinsic "atomic_and"(%b, %{{.*}}, %{{.*}}) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK:        %{{.*}} = sarek.intrinsic "atomic_or"(%b, %{{.*}}, %{{.*}}) : (!sarek.vec<i32>, i32, i32) -> i32
// CHECK-NOT:    sarek.store
// CHECK:      }
// NATIVE:      sarek.kernel @copy(%a: !sarek.vec<ui8> "a", %b: !sarek.vec<ui8> "b") {
// NATIVE-NEXT:   %i = sarek.intrinsic "global_thread_id"() : () -> i32
// NATIVE-NEXT:   %x = sarek.array_read %a[%i] : !sarek.vec<ui8>

// -----
// i8 and i16 reads sign-extend: (word << (24 - shift)) >> 24, (word << (16 - shift)) >> 16; a 16-bit element's
// word is i >> 1 of its byte offset i * 2.
builtin.module {
  sarek.kernel @signed(%a : !sarek.vec<i8> "a", %h : !sarek.vec<i16> "h", %o : !sarek.vec<i32> "o") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%i] : !sarek.vec<i8>
    %y = sarek.array_read %h[%i] : !sarek.vec<i16>
    %xi = sarek.cast %x : i8 to i32
    %yi = sarek.cast %y : i16 to i32
    %s = sarek.binop add %xi, %yi : i32
    %p = sarek.elem_ref %o[%i] : !sarek.vec<i32>
    sarek.store %p, %s : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @signed
// CHECK:         %[[W:.*]] = sarek.array_read %a[%{{.*}}] : !sarek.vec<i32>
// CHECK:         %[[SH:.*]] = sarek.binop shl %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[C24:.*]] = sarek.constant 24 : i32
// CHECK-NEXT:    %[[UP:.*]] = sarek.binop sub %[[C24]], %[[SH]] : i32
// CHECK-NEXT:    %[[L:.*]] = sarek.binop shl %[[W]], %[[UP]] : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 24 : i32
// CHECK-NEXT:    %x = sarek.binop shr %[[L]], %{{.*}} : i32
// CHECK:         %[[B:.*]] = sarek.binop mul %i, %{{.*}} : i32
// CHECK:         sarek.binop shr %[[B]], %{{.*}} : i32
// CHECK:         sarek.array_read %h[%{{.*}}] : !sarek.vec<i32>
// CHECK:         sarek.constant 16 : i32
// CHECK:         %s = sarek.binop add %x, %y : i32
// CHECK-NEXT:    %p = sarek.elem_ref %o[%i] : !sarek.vec<i32>
// CHECK-NEXT:    sarek.store %p, %s : !sarek.ref<i32>

// -----
// Conversions to a narrow type truncate explicitly (u16: & 0xFFFF, i8: (x << 24) >> 24); narrow locals and
// constants are i32; a conversion from a narrow type to i32 is its value.
builtin.module {
  sarek.kernel @conv(%x : i32 "x", %o : !sarek.vec<i32> "o") {
    %a = sarek.cast %x : i32 to ui16
    %b = sarek.cast %x : i32 to i8
    %c = sarek.constant 200 : ui8
    %l = sarek.let_mut "l" %c : ui8
    %ai = sarek.cast %a : ui16 to i32
    %bi = sarek.cast %b : i8 to i32
    %s = sarek.binop add %ai, %bi : i32
    %z = sarek.constant 0 : i32
    %p = sarek.elem_ref %o[%z] : !sarek.vec<i32>
    sarek.store %p, %s : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @conv(%x: i32 "x", %o: !sarek.vec<i32> "o") {
// CHECK-NEXT:    %0 = sarek.constant 65535 : i32
// CHECK-NEXT:    %a = sarek.binop bitand %x, %0 : i32
// CHECK-NEXT:    %1 = sarek.constant 24 : i32
// CHECK-NEXT:    %2 = sarek.binop shl %x, %1 : i32
// CHECK-NEXT:    %3 = sarek.constant 24 : i32
// CHECK-NEXT:    %b = sarek.binop shr %2, %3 : i32
// CHECK-NEXT:    %c = sarek.constant 200 : i32
// CHECK-NEXT:    %l = sarek.let_mut "l" %c : i32
// CHECK-NEXT:    %s = sarek.binop add %a, %b : i32
// CHECK-NOT:     sarek.cast

// -----
// bf16: a read is the 16 bits << 16 as an f32; an f32 -> bf16 conversion rounds the bits to nearest even
// ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000), every NaN becomes the quiet NaN 0x7FC00000.
builtin.module {
  sarek.kernel @bf(%a : bf16 "a", %x : !sarek.vec<bf16> "x") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %v = sarek.array_read %x[%i] : !sarek.vec<bf16>
    %f = sarek.cast %v : bf16 to f32
    %af = sarek.cast %a : bf16 to f32
    %m = sarek.binop mul %f, %af : f32
    %r = sarek.cast %m : f32 to bf16
    %p = sarek.elem_ref %x[%i] : !sarek.vec<bf16>
    sarek.store %p, %r : !sarek.ref<bf16>
  }
}
// CHECK-LABEL: sarek.kernel @bf(%a: f32 "a", %x: !sarek.vec<i32> "x") attributes {sarek.packed = {x = bf16}} {
// CHECK:         sarek.array_read %x[%{{.*}}] : !sarek.vec<i32>
// CHECK:         sarek.constant 65535 : i32
// CHECK-NEXT:    %[[H:.*]] = sarek.binop bitand %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 16 : i32
// CHECK-NEXT:    %[[HI:.*]] = sarek.binop shl %[[H]], %{{.*}} : i32
// CHECK-NEXT:    %v = sarek.bitcast %[[HI]] : i32 to f32
// CHECK-NEXT:    %m = sarek.binop mul %v, %a : f32
// CHECK-NEXT:    %[[B:.*]] = sarek.bitcast %m : f32 to i32
// CHECK:         sarek.constant 32767 : i32
// CHECK:         sarek.constant -65536 : i32
// CHECK:         sarek.constant 2143289344 : i32
// CHECK:         sarek.constant 2139095040 : i32
// CHECK:         %r = sarek.bitcast %[[BITS:[0-9]+]] : i32 to f32
// CHECK-NOT:     sarek.bitcast %r
// CHECK:         sarek.binop shr %[[BITS]], %{{.*}} : i32
// CHECK:         sarek.intrinsic "atomic_and"(%x
// CHECK:         sarek.intrinsic "atomic_or"(%x

// -----
// A record of u8 fields in an N-dimensional vector: words at the aligned layout's byte offsets (element * 4 +
// field offset); a word read of a rank-2 vector is `[0, word]` marked `sarek.flat`; the record decl's fields
// become i32; a record read only for its fields reads those fields, any other use builds the record.
builtin.module {
  sarek.record @RGBA {r : ui8, g : ui8, b : ui8, a : ui8}
  sarek.kernel @px(%p : !sarek.vec<!sarek.record<@RGBA>, 2> "p") {
    %i = sarek.intrinsic "global_idx_y"() : () -> i32
    %j = sarek.intrinsic "global_idx_x"() : () -> i32
    %v = sarek.array_read %p[%i, %j] : !sarek.vec<!sarek.record<@RGBA>, 2>
    %g = sarek.field %v "g" : ui8
    %e = sarek.elem_ref %p[%i, %j] : !sarek.vec<!sarek.record<@RGBA>, 2>
    %f = sarek.field_ref %e "b" : !sarek.ref<ui8>
    sarek.store %f, %g : !sarek.ref<ui8>
    %w = sarek.array_read %p[%j, %i] : !sarek.vec<!sarek.record<@RGBA>, 2>
    sarek.store %e, %w : !sarek.ref<!sarek.record<@RGBA>>
  }
}
// CHECK:       sarek.record @RGBA {r : i32, g : i32, b : i32, a : i32}
// CHECK-NEXT:  sarek.kernel @px(%p: !sarek.vec<i32, 2> "p") attributes {sarek.packed = {p = 4 : i32}} {
// CHECK:         %[[N:.*]] = sarek.array_dim %p, 1 : !sarek.vec<i32, 2>
// CHECK-NEXT:    %[[R:.*]] = sarek.binop mul %i, %[[N]] : i32
// CHECK-NEXT:    %[[E:.*]] = sarek.binop add %[[R]], %j : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 4 : i32
// CHECK-NEXT:    %[[BYTE:.*]] = sarek.binop mul %[[E]], %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 1 : i32
// CHECK-NEXT:    %[[G:.*]] = sarek.binop add %[[BYTE]], %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = sarek.constant 2 : i32
// CHECK-NEXT:    %[[W:.*]] = sarek.binop shr %[[G]], %{{.*}} : i32
// CHECK-NEXT:    %[[Z:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:    %{{.*}} = sarek.array_read %p[%[[Z]], %[[W]]] : !sarek.vec<i32, 2> attributes {sarek.flat}
// CHECK:         %g = sarek.binop bitand %{{.*}}, %{{.*}} : i32
// CHECK-NOT:     sarek.make_record
// CHECK:         sarek.constant 2 : i32
// CHECK:         sarek.intrinsic "atomic_and"(%p
// CHECK:         sarek.intrinsic "atomic_or"(%p
// CHECK:         %w = sarek.make_record @RGBA(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-COUNT-4: sarek.intrinsic "atomic_or"(%p
// CHECK-NOT:     sarek.field_ref
// CHECK-NOT:     sarek.store
// NATIVE:      sarek.record @RGBA {r : ui8, g : ui8, b : ui8, a : ui8}

// -----
// Shared and local arrays of narrow types hold one element per 32-bit slot (never seen by the host).
builtin.module {
  sarek.kernel @sh(%o : !sarek.vec<i32> "o") {
    %n = sarek.constant 64 : i32
    %s = sarek.alloc_array "s"[%n] : !sarek.array<i16, shared>
    %i = sarek.intrinsic "thread_idx_x"() : () -> i32
    %x = sarek.cast %i : i32 to i16
    %p = sarek.elem_ref %s[%i] : !sarek.array<i16, shared>
    sarek.store %p, %x : !sarek.ref<i16>
    %y = sarek.array_read %s[%i] : !sarek.array<i16, shared>
    %yi = sarek.cast %y : i16 to i32
    %q = sarek.elem_ref %o[%i] : !sarek.vec<i32>
    sarek.store %q, %yi : !sarek.ref<i32>
  }
}
// CHECK-LABEL: sarek.kernel @sh
// CHECK:         %s = sarek.alloc_array "s"[%n] : !sarek.array<i32, shared>
// CHECK:         %p = sarek.elem_ref %s[%i] : !sarek.array<i32, shared>
// CHECK-NEXT:    sarek.store %p, %x : !sarek.ref<i32>
// CHECK-NEXT:    %y = sarek.array_read %s[%i] : !sarek.array<i32, shared>
// CHECK-NEXT:    %q = sarek.elem_ref %o[%i] : !sarek.vec<i32>
// CHECK-NEXT:    sarek.store %q, %y : !sarek.ref<i32>

// -----
// Helpers: narrow parameters and results are i32, packed vectors are word vectors.
builtin.module {
  sarek.helper @get(%v : !sarek.vec<ui8> "v", %i : i32 "i") -> ui8 {
    %x = sarek.array_read %v[%i] : !sarek.vec<ui8>
    sarek.return %x : ui8
  }
  sarek.kernel @k(%v : !sarek.vec<ui8> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.call @get(%v, %z) : (!sarek.vec<ui8>, i32) -> ui8
  }
}
// CHECK:       sarek.helper @get(%v: !sarek.vec<i32> "v", %i: i32 "i") -> i32 {
// CHECK:         sarek.return %{{.*}} : i32
// CHECK:       sarek.kernel @k(%v: !sarek.vec<i32> "v") attributes {sarek.packed = {v = ui8}} {
// CHECK:         %x = sarek.call @get(%v, %z) : (!sarek.vec<i32>, i32) -> i32

// -----
// A record holding narrow fields passed by value: its fields are i32 (the runtime widens the host's bytes);
// the kernel records it in sarek.packed.
builtin.module {
  sarek.record @P {r : ui8, h : bf16}
  sarek.kernel @byval(%p : !sarek.record<@P> "p", %o : !sarek.vec<f32> "o") {
    %r = sarek.field %p "r" : ui8
    %h = sarek.field %p "h" : bf16
    %hf = sarek.cast %h : bf16 to f32
    %z = sarek.constant 0 : i32
    %e = sarek.elem_ref %o[%z] : !sarek.vec<f32>
    sarek.store %e, %hf : !sarek.ref<f32>
  }
}
// CHECK:       sarek.record @P {r : i32, h : f32}
// CHECK-NEXT:  sarek.kernel @byval(%p: !sarek.record<@P> "p", %o: !sarek.vec<f32> "o") attributes {sarek.packed = {p = !sarek.record<@P>}} {
// CHECK-NEXT:    %r = sarek.field %p "r" : i32
// CHECK-NEXT:    %h = sarek.field %p "h" : f32
// CHECK-NEXT:    %z = sarek.constant 0 : i32
// CHECK-NEXT:    %e = sarek.elem_ref %o[%z] : !sarek.vec<f32>
// CHECK-NEXT:    sarek.store %e, %h : !sarek.ref<f32>
