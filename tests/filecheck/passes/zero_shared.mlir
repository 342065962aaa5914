// RUN: sarek-opt %s -p 'sarek-zero-shared{target=cuda}' --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-zero-shared{target=wgsl}' --split-input-file | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-zero-shared{target=vulkan}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=UNKNOWN

// Shared arrays move to the top of the kernel (one storage per block, wherever declared); each one the kernel
// reads gets a loop over the block's threads storing zero (N-D: row-major indices of the flat slot), then one
// barrier. `w` is only written and `q` only written through a field: not zeroed. A local array is untouched.
// WGSL gets the same (its specification zeroes workgroup memory, but lavapipe through wgpu did not).
builtin.module {
  sarek.record @pt {x : f32, n : i32}
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
    %c0 = sarek.constant 0 : i32
    %c4 = sarek.constant 4 : i32
    %c8 = sarek.constant 8 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %p = sarek.binop lt %t, %n : i32
    sarek.if %p {
      %c16 = sarek.constant 16 : i32
      %s = sarek.alloc_array "s"[%c16] : !sarek.array<f32, shared>
      %x = sarek.array_read %s[%t] : !sarek.array<f32, shared>
      %r = sarek.elem_ref %v[%t] : !sarek.vec<f32>
      sarek.store %r, %x : !sarek.ref<f32>
    }
    %m = sarek.alloc_array "m"[%c4, %c8] : !sarek.array<i32, shared, 2>
    %y = sarek.array_read %m[%c0, %t] : !sarek.array<i32, shared, 2>
    %c2 = sarek.constant 2 : i32
    %w = sarek.alloc_array "w"[%c2] : !sarek.array<f32, shared>
    %wr = sarek.elem_ref %w[%t] : !sarek.array<f32, shared>
    %one = sarek.constant 1.0 : f32
    sarek.store %wr, %one : !sarek.ref<f32>
    %q = sarek.alloc_array "q"[%c2] : !sarek.array<!sarek.record<@pt>, shared>
    %qr = sarek.elem_ref %q[%c0] : !sarek.array<!sarek.record<@pt>, shared>
    %qx = sarek.field_ref %qr "x" : !sarek.ref<f32>
    sarek.store %qx, %one : !sarek.ref<f32>
    %l = sarek.alloc_array "l"[%c2] : !sarek.array<f32, local>
  }
}
// CHECK:      sarek.kernel @k(
// CHECK-NEXT:   %[[N16:.*]] = sarek.constant 16 : i32
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%[[N16]]] : !sarek.array<f32, shared>
// CHECK-NEXT:   %[[R:.*]] = sarek.constant 4 : i32
// CHECK-NEXT:   %[[C:.*]] = sarek.constant 8 : i32
// CHECK-NEXT:   %m = sarek.alloc_array "m"[%[[R]], %[[C]]] : !sarek.array<i32, shared, 2>
// CHECK:        %w = sarek.alloc_array "w"
// CHECK:        %q = sarek.alloc_array "q"
//   the linear thread index tx + bx * (ty + by * tz) and the block's threads bx * (by * bz)
// CHECK-NEXT:   %[[TX:.*]] = sarek.intrinsic "thread_idx_x"() : () -> i32
// CHECK-NEXT:   %[[TY:.*]] = sarek.intrinsic "thread_idx_y"() : () -> i32
// CHECK-NEXT:   %[[TZ:.*]] = sarek.intrinsic "thread_idx_z"() : () -> i32
// CHECK-NEXT:   %[[BX:.*]] = sarek.intrinsic "block_dim_x"() : () -> i32
// CHECK-NEXT:   %[[BY:.*]] = sarek.intrinsic "block_dim_y"() : () -> i32
// CHECK-NEXT:   %[[BZ:.*]] = sarek.intrinsic "block_dim_z"() : () -> i32
// CHECK-NEXT:   %[[A:.*]] = sarek.binop mul %[[BY]], %[[TZ]] : i32
// CHECK-NEXT:   %[[B:.*]] = sarek.binop add %[[TY]], %[[A]] : i32
// CHECK-NEXT:   %[[D:.*]] = sarek.binop mul %[[BX]], %[[B]] : i32
// CHECK-NEXT:   %[[TID:.*]] = sarek.binop add %[[TX]], %[[D]] : i32
// CHECK-NEXT:   %[[E:.*]] = sarek.binop mul %[[BY]], %[[BZ]] : i32
// CHECK-NEXT:   %[[NT:.*]] = sarek.binop mul %[[BX]], %[[E]] : i32
//   s: 16 slots
// CHECK-NEXT:   %[[S16:.*]] = sarek.constant 16 : i32
// CHECK-NEXT:   %zi = sarek.let_mut "zi" %[[TID]] : i32
// CHECK-NEXT:   sarek.while {
// CHECK-NEXT:     %[[I:.*]] = sarek.load %zi : !sarek.ref<i32>
// CHECK-NEXT:     %[[LT:.*]] = sarek.binop lt %[[I]], %[[S16]] : i32
// CHECK-NEXT:     sarek.yield %[[LT]] : i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:     %[[J:.*]] = sarek.load %zi : !sarek.ref<i32>
// CHECK-NEXT:     %[[P:.*]] = sarek.elem_ref %s[%[[J]]] : !sarek.array<f32, shared>
// CHECK-NEXT:     %[[Z:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:     sarek.store %[[P]], %[[Z]] : !sarek.ref<f32>
// CHECK-NEXT:     %[[NEXT:.*]] = sarek.binop add %[[J]], %[[NT]] : i32
// CHECK-NEXT:     sarek.store %zi, %[[NEXT]] : !sarek.ref<i32>
// CHECK-NEXT:   }
//   m: 4 x 8 slots, (zi / 8, zi % 8)
// CHECK-NEXT:   %{{.*}} = sarek.constant 32 : i32
// CHECK:        } do {
// CHECK-NEXT:     %[[K:.*]] = sarek.load %zi_1 : !sarek.ref<i32>
// CHECK-NEXT:     %[[EIGHT:.*]] = sarek.constant 8 : i32
// CHECK-NEXT:     %[[COL:.*]] = sarek.binop rem %[[K]], %[[EIGHT]] : i32
// CHECK-NEXT:     %[[ROW:.*]] = sarek.binop div %[[K]], %[[EIGHT]] : i32
// CHECK-NEXT:     %{{.*}} = sarek.elem_ref %m[%[[ROW]], %[[COL]]] : !sarek.array<i32, shared, 2>
// CHECK-NEXT:     %[[ZI:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:     sarek.store %{{.*}}, %[[ZI]] : !sarek.ref<i32>
// CHECK:        }
// CHECK-NEXT:   sarek.barrier
// CHECK-NOT:    sarek.while
// CHECK-NOT:    sarek.barrier
// CHECK:        sarek.if
// CHECK:        %l = sarek.alloc_array "l"

// WGSL:       sarek.kernel @k(
// WGSL:         %s = sarek.alloc_array "s"
// WGSL:         sarek.while
// WGSL:         sarek.barrier

// -----
// The element's zero for records (a record of zeros, nested) and variants (the first constructor, zero
// payloads: the all-zero bytes, as C's `= {0}`); bool, f16 and u32 scalars.
builtin.module {
  sarek.record @in {b : i1, h : f16}
  sarek.record @out {i : !sarek.record<@in>, u : ui32}
  sarek.variant @sh {Circle(f32), Empty()}
  sarek.kernel @k(%v : !sarek.vec<!sarek.record<@out>> "v", %w : !sarek.vec<!sarek.variant<@sh>> "w") {
    %c0 = sarek.constant 0 : i32
    %c4 = sarek.constant 4 : i32
    %a = sarek.alloc_array "a"[%c4] : !sarek.array<!sarek.record<@out>, shared>
    %b = sarek.alloc_array "b"[%c4] : !sarek.array<!sarek.variant<@sh>, shared>
    %x = sarek.array_read %a[%c0] : !sarek.array<!sarek.record<@out>, shared>
    %y = sarek.array_read %b[%c0] : !sarek.array<!sarek.variant<@sh>, shared>
  }
}
// CHECK:      sarek.while
// CHECK:        %[[B:.*]] = sarek.constant false
// CHECK-NEXT:   %[[H:.*]] = sarek.constant 0.0 : f16
// CHECK-NEXT:   %[[IN:.*]] = sarek.make_record @in(%[[B]], %[[H]])
// CHECK-NEXT:   %[[U:.*]] = sarek.constant 0 : ui32
// CHECK-NEXT:   %[[OUT:.*]] = sarek.make_record @out(%[[IN]], %[[U]])
// CHECK-NEXT:   sarek.store %{{.*}}, %[[OUT]] : !sarek.ref<!sarek.record<@out>>
// CHECK:      sarek.while
// CHECK:        %[[F:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:   %[[V:.*]] = sarek.make_variant @sh "Circle"(%[[F]])
// CHECK-NEXT:   sarek.store %{{.*}}, %[[V]] : !sarek.ref<!sarek.variant<@sh>>
// CHECK:      sarek.barrier

// -----
// No shared array the kernel reads: nothing is written (no barrier).
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %c0 = sarek.constant 0 : i32
    %c2 = sarek.constant 2 : i32
    %w = sarek.alloc_array "w"[%c2] : !sarek.array<f32, shared>
    %l = sarek.alloc_array "l"[%c2] : !sarek.array<f32, local>
    %x = sarek.array_read %l[%c0] : !sarek.array<f32, local>
  }
}
// CHECK:     sarek.kernel @k(
// CHECK-NOT: sarek.barrier
// CHECK-NOT: sarek.while
// CHECK:     }
// UNKNOWN: error: sarek-zero-shared: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
