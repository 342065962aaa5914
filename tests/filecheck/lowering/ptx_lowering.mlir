// RUN: sarek-opt %s -p 'sarek-lower-ptx' | filecheck %s

// The PTX lowering's decisions as the sarek_ptx IR shows them: a vector parameter is a u64 pointer made
// global (cvta) and an s32 length, a shared array a named .shared block of its constant size, the global
// index one mad.lo, a record element's fields loads at their C-layout offsets (sarek.analysis.layout), a
// vector the kernel never writes read through the non-coherent cache (ld.global.nc), the f32 square root
// correctly rounded (sqrt.rn), the barrier bar.sync 0, atomic_add an atom.global.add, and an `if` a guarded
// branch over its body.
builtin.module {
  sarek.record @pt {x : f32, y : f32}
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %h : !sarek.vec<i32> "h", %p : !sarek.vec<!sarek.record<@pt>> "p", %n : i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c4 = sarek.constant 4 : i32
    %sh = sarek.alloc_array "tile"[%c4] : !sarek.array<f32, shared>
    %x = sarek.array_read %a[%i] : !sarek.vec<f32>
    %r = sarek.intrinsic "sqrt"(%x) : (f32) -> f32
    %st = sarek.elem_ref %sh[%t] : !sarek.array<f32, shared>
    sarek.store %st, %r : !sarek.ref<f32>
    sarek.barrier
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%h, %t, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %pr = sarek.array_read %p[%i] : !sarek.vec<!sarek.record<@pt>>
      %px = sarek.field %pr "x" : f32
      %y = sarek.array_read %sh[%t] : !sarek.array<f32, shared>
      %s = sarek.binop add %px, %y : f32
      %ap = sarek.elem_ref %a[%i] : !sarek.vec<f32>
      sarek.store %ap, %s : !sarek.ref<f32>
    }
  }
}
// CHECK:      sarek_ptx.entry attributes {sym_name = "k", param_names = ["k_param_0", "k_param_1", "k_param_2", "k_param_3", "k_param_4", "k_param_5", "k_param_6"], param_types = ["u64", "s32", "u64", "s32", "u64", "s32", "s32"]
// CHECK-NEXT:   sarek_ptx.array {space = "shared", sym = "k_tile_1", nbytes = #builtin.int<16>, align = #builtin.int<4>}
// CHECK-NEXT:   sarek_ptx.ld {mods = ["param", "u64"], args = [#sarek_ptx.reg<u64, 1>, #sarek_ptx.addr<"k_param_0", 0>]}
// CHECK-NEXT:   sarek_ptx.cvta {mods = ["to", "global", "u64"], args = [#sarek_ptx.reg<u64, 1>, #sarek_ptx.reg<u64, 1>]}
// CHECK-NEXT:   sarek_ptx.ld {mods = ["param", "s32"], args = [#sarek_ptx.reg<s32, 1>, #sarek_ptx.addr<"k_param_1", 0>]}
// CHECK:        sarek_ptx.mov {mods = ["u32"], args = [#sarek_ptx.reg<s32, [[CTA:[0-9]+]]>, "%ctaid.x"]}
// CHECK-NEXT:   sarek_ptx.mov {mods = ["u32"], args = [#sarek_ptx.reg<s32, [[NTID:[0-9]+]]>, "%ntid.x"]}
// CHECK-NEXT:   sarek_ptx.mov {mods = ["u32"], args = [#sarek_ptx.reg<s32, [[TID:[0-9]+]]>, "%tid.x"]}
// CHECK-NEXT:   sarek_ptx.mad {mods = ["lo", "s32"], args = [#sarek_ptx.reg<s32, [[GID:[0-9]+]]>, #sarek_ptx.reg<s32, [[CTA]]>, #sarek_ptx.reg<s32, [[NTID]]>, #sarek_ptx.reg<s32, [[TID]]>]}
// CHECK:        sarek_ptx.ld {mods = ["global", "f32"], args = [#sarek_ptx.reg<f32, [[X:[0-9]+]]>,
// CHECK-NEXT:   sarek_ptx.sqrt {mods = ["rn", "f32"], args = [#sarek_ptx.reg<f32, {{[0-9]+}}>, #sarek_ptx.reg<f32, [[X]]>]}
// CHECK:        sarek_ptx.st {mods = ["shared", "f32"]
// CHECK-NEXT:   sarek_ptx.bar {mods = ["sync"], args = [0 : i64]}
// CHECK:        sarek_ptx.atom {mods = ["global", "add", "s32"]
// CHECK-NEXT:   sarek_ptx.setp {mods = ["lt", "s32"], args = [#sarek_ptx.reg<pred, [[P:[0-9]+]]>, #sarek_ptx.reg<s32, [[GID]]>,
// CHECK-NEXT:   sarek_ptx.bra {mods = [], args = ["[[END:\$L_endif_[0-9]+]]"], guard = #sarek_ptx.reg<pred, [[P]]>, guard_neg}
// CHECK-NEXT:   sarek_ptx.mul {mods = ["wide", "s32"], args = [#sarek_ptx.reg<u64, [[OFF:[0-9]+]]>, #sarek_ptx.reg<s32, [[GID]]>, 8 : i64]}
// CHECK-NEXT:   sarek_ptx.add {mods = ["s64"], args = [#sarek_ptx.reg<u64, [[A:[0-9]+]]>, #sarek_ptx.reg<u64, 3>, #sarek_ptx.reg<u64, [[OFF]]>]}
// CHECK-NEXT:   sarek_ptx.ld {mods = ["global", "nc", "f32"], args = [#sarek_ptx.reg<f32, {{[0-9]+}}>, #sarek_ptx.addr<#sarek_ptx.reg<u64, [[A]]>, 0>]}
// CHECK-NEXT:   sarek_ptx.ld {mods = ["global", "nc", "f32"], args = [#sarek_ptx.reg<f32, {{[0-9]+}}>, #sarek_ptx.addr<#sarek_ptx.reg<u64, [[A]]>, 4>]}
// CHECK-NEXT:   sarek_ptx.ld {mods = ["shared", "f32"]
// CHECK-NEXT:   sarek_ptx.add {mods = ["rn", "f32"]
// CHECK-NEXT:   sarek_ptx.st {mods = ["global", "f32"]
// CHECK-NEXT:   sarek_ptx.label "[[END]]"
// CHECK-NEXT:   sarek_ptx.ret {mods = [], args = []}
