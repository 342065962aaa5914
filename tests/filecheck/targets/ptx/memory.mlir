// RUN: sarek-opt %s -t 'ptx{opt=off fp=exact}' | filecheck %s

// Records and variants in vectors at their aligned-layout offsets; shared/local arrays (32-bit addresses); barrier; fence;
// variant payload word pairs as .v2.b32 accesses; atomics (old value); warp shuffles with the guarded source lane; record parameter by value.
builtin.module {
  sarek.record @pt {x : f32, k : i64}
  sarek.variant @opt {None, Some(f64), Pair(i32, f32)}
  sarek.kernel @memory(%pts : !sarek.vec<!sarek.record<@pt>> "pts", %ov : !sarek.vec<!sarek.variant<@opt>> "ov", %cnt : !sarek.vec<i32> "cnt", %base : !sarek.record<@pt> "base") {
    %c64 = sarek.constant 64 : i32
    %tile = sarek.alloc_array "tile"[%c64] : !sarek.array<f32, shared>
    %loc = sarek.alloc_array "loc"[%c64] : !sarek.array<i32, local>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %p = sarek.array_read %pts[%t] : !sarek.vec<!sarek.record<@pt>>
    %k = sarek.field %p "k" : i64
    %bx = sarek.field %base "x" : f32
    %slot = sarek.elem_ref %tile[%t] : !sarek.array<f32, shared>
    sarek.store %slot, %bx : !sarek.ref<f32>
    sarek.barrier
    sarek.mem_fence
    %kd = sarek.cast %k : i64 to f64
    %v = sarek.make_variant @opt "Some"(%kd)
    %dv = sarek.elem_ref %ov[%t] : !sarek.vec<!sarek.variant<@opt>>
    sarek.store %dv, %v : !sarek.ref<!sarek.variant<@opt>>
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%cnt, %t, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %sh = sarek.intrinsic "warp_shuffle_down"(%old, %one) : (i32, i32) -> i32
    %ls = sarek.elem_ref %loc[%t] : !sarek.array<i32, local>
    sarek.store %ls, %sh : !sarek.ref<i32>
  }
}

// CHECK:      .param .align 8 .b8 memory_param_6[16]
// CHECK:      .shared .align 4 .b8 memory_tile_1[256];
// CHECK-NEXT: .local .align 4 .b8 memory_loc_2[256];
// CHECK:      ld.param.f32 %f{{[0-9]+}}, [memory_param_6];
// CHECK-NEXT: ld.param.s64 %sd{{[0-9]+}}, [memory_param_6+8];
// CHECK:      mov.u32 [[TILE:%u[0-9]+]], memory_tile_1;
// CHECK:      mul.wide.s32 %ud{{[0-9]+}}, %s{{[0-9]+}}, 16;
// CHECK:      ld.global.nc.f32 %f{{[0-9]+}}, [[[E:%ud[0-9]+]]];
// CHECK-NEXT: ld.global.nc.s64 %sd{{[0-9]+}}, [[[E]]+8];
// CHECK:      mad.lo.s32 [[SH:%u[0-9]+]], %s{{[0-9]+}}, 4, [[TILE]];
// CHECK-NEXT: st.shared.f32 [[[SH]]]
// CHECK:      bar.sync 0;
// CHECK-NEXT: membar.gl;
// CHECK:      mov.b64 {[[W0:%r[0-9]+]], [[W1:%r[0-9]+]]}, %fd{{[0-9]+}};
// CHECK:      st.global.s32 [[[V:%ud[0-9]+]]],
// the payload's two words at the 8-aligned offset 8 of an 8-aligned variant: one vector store
// CHECK-NEXT: st.global.v2.b32 [[[V]]+8], {[[W0]], [[W1]]};
// CHECK:      atom.global.add.s32
// CHECK:      mov.u32 [[LANE:%s[0-9]+]], %laneid;
// CHECK:      sub.s32 [[ROOM:%s[0-9]+]], {{%s[0-9]+}}, [[LANE]];
// CHECK:      setp.lt.s32 {{%p[0-9]+}}, {{%s[0-9]+}}, [[ROOM]];
// CHECK:      add.s32 [[CAND:%s[0-9]+]], [[LANE]], {{.*}};
// CHECK-NEXT: selp.s32 [[SRC:%s[0-9]+]], [[CAND]], [[LANE]], {{%p[0-9]+}};
// CHECK-NEXT: shfl.sync.idx.b32 %s{{[0-9]+}}, %s{{[0-9]+}}, [[SRC]], 31, -1;
// CHECK:      st.local.s32
