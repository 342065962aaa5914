// RUN: sarek-opt %s -p 'sarek-lower-warp{target=ptx},sarek-lower-ptx' --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-lower-ptx' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=BAD

// PTX takes its lane guard from sarek-lower-warp (the helper, inlined at the call) and lowers only the
// in-range absolute shuffle: shfl.sync.idx.b32 at the guarded source lane, twice for a 64-bit value.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f64> "v") {
    %i = sarek.intrinsic "lane_id"() : () -> i32
    %x = sarek.array_read %v[%i] : !sarek.vec<f64>
    %a = sarek.intrinsic "warp_shuffle_xor"(%x, %i) : (f64, i32) -> f64 loc("w.py":4:9)
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f64>
    sarek.store %p, %a : !sarek.ref<f64>
  }
}
// CHECK:      sarek_ptx.ld {mods = ["global", "f64"]
// CHECK-NEXT: sarek_ptx.mov {mods = ["u32"], args = [#sarek_ptx.reg<s32, [[LANE:[0-9]+]]>, "%laneid"]}
// CHECK-NEXT: sarek_ptx.mov {mods = ["u32"], args = [#sarek_ptx.reg<s32, [[W:[0-9]+]]>, "WARP_SZ"]}
// CHECK:      sarek_ptx.xor {mods = ["b32"], args = [#sarek_ptx.reg<s32, [[MIX:[0-9]+]]>, #sarek_ptx.reg<s32, [[LANE]]>,
// CHECK:      sarek_ptx.setp {mods = ["lt", "s32"], args = [#sarek_ptx.reg<pred, {{[0-9]+}}>, #sarek_ptx.reg<s32, [[MIX]]>, #sarek_ptx.reg<s32, [[W]]>]}
// CHECK:      sarek_ptx.selp {mods = ["s32"], args = [#sarek_ptx.reg<s32, [[SRC:[0-9]+]]>, #sarek_ptx.reg<s32, [[MIX]]>, #sarek_ptx.reg<s32, [[LANE]]>,
// CHECK-NEXT: sarek_ptx.mov {mods = ["b64"]
// CHECK-NEXT: sarek_ptx.shfl {mods = ["sync", "idx", "b32"], args = [{{.*}}, #sarek_ptx.reg<s32, [[SRC]]>, 31 : i64, -1 : i64]}
// CHECK-NEXT: sarek_ptx.shfl {mods = ["sync", "idx", "b32"], args = [{{.*}}, #sarek_ptx.reg<s32, [[SRC]]>, 31 : i64, -1 : i64]}
// CHECK-NEXT: sarek_ptx.mov {mods = ["b64"]
// BAD: w.py:4:9: error: PTX: 'warp_shuffle_xor' must be lowered by sarek-lower-warp before the PTX lowering

// -----

// An absolute shuffle not marked in range is a guarded one too: the PTX lowering refuses it.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i32> "v") {
    %i = sarek.intrinsic "lane_id"() : () -> i32
    %x = sarek.array_read %v[%i] : !sarek.vec<i32>
    %a = sarek.intrinsic "warp_shuffle"(%x, %i) : (i32, i32) -> i32 loc("w.py":7:9)
  }
}
// CHECK:      sarek_ptx.shfl {mods = ["sync", "idx", "b32"]
// BAD: w.py:7:9: error: PTX: 'warp_shuffle' must be lowered by sarek-lower-warp before the PTX lowering
