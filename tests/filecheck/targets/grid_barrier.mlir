// RUN: sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// A grid barrier: CUDA calls cooperative_groups' grid sync; PTX spells out the same barrier on the cooperative
// launch's workspace (%envreg1/%envreg2; a plain launch traps): thread 0 of each block adds its arrival with
// release semantics and spins on acquire loads until the word's top bit flips, between two block barriers.
// The other targets refuse it (passes/reject_features.mlir).

// CUDA:      #include <cooperative_groups.h>
// CUDA:      x[sarek_i] = (float)sarek_i;
// CUDA-NEXT: cooperative_groups::this_grid().sync();
// CUDA-NEXT: y[sarek_i] = x[

// PTX:      st.global.f32
// PTX-NEXT: mov.b32 [[LO:%r[0-9]+]], %envreg1;
// PTX-NEXT: mov.b32 [[HI:%r[0-9]+]], %envreg2;
// PTX-NEXT: mov.b64 [[WS:%rd[0-9]+]], {[[LO]], [[HI]]};
// PTX-NEXT: setp.ne.b64 [[OK:%p[0-9]+]], [[WS]], 0;
// PTX-NEXT: @[[OK]] bra [[WSL:\$L_grid_ws_[0-9]+]];
// PTX-NEXT: trap;
// PTX-NEXT: [[WSL]]:
// PTX-NEXT: bar.sync 0;
// PTX:      setp.ne.u32 [[NOT0:%p[0-9]+]], {{%u[0-9]+}}, 0;
// PTX-NEXT: @[[NOT0]] bra [[AFTER:\$L_grid_after_[0-9]+]];
// PTX:      mov.u32 [[BIG:%u[0-9]+]], 2147483649;
// PTX-NEXT: sub.u32 [[FIRST:%u[0-9]+]], [[BIG]], {{%u[0-9]+}};
// PTX-NEXT: setp.eq.u32 [[B0:%p[0-9]+]], {{%u[0-9]+}}, 0;
// PTX-NEXT: selp.u32 [[INC:%u[0-9]+]], [[FIRST]], 1, [[B0]];
// PTX-NEXT: atom.release.gpu.add.u32 [[OLD:%u[0-9]+]], [[[WS]]+4], [[INC]];
// PTX-NEXT: [[SPIN:\$L_grid_spin_[0-9]+]]:
// PTX-NEXT: ld.acquire.gpu.u32 [[CUR:%u[0-9]+]], [[[WS]]+4];
// PTX-NEXT: xor.b32 [[FLIP:%u[0-9]+]], [[CUR]], [[OLD]];
// PTX-NEXT: setp.gt.s32 [[SAME:%p[0-9]+]], [[FLIP]], -1;
// PTX-NEXT: @[[SAME]] bra [[SPIN]];
// PTX-NEXT: [[AFTER]]:
// PTX-NEXT: bar.sync 0;
// PTX:      ld.global.f32
