# The 8/16-bit, unsigned and bf16 element types on ptx (kernels: Inputs/small_types.py; issue 14).
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t ptx | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned -t ptx | filecheck %s --check-prefix=UNS
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t ptx | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t ptx | filecheck %s --check-prefix=REC

# NARROW: setp.lt.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# NARROW: ld.global.nc.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# NARROW: ld.global.nc.s8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# NARROW: cvt.s32.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# NARROW: and.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 255;
# NARROW: st.global.u8 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};
# NARROW: ld.global.nc.s16 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# NARROW: ld.global.nc.u16 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# NARROW: cvt.s32.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# NARROW: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# NARROW: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# NARROW: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# NARROW: st.global.s16 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};

# UNS: .param .u32 {{[a-z_]+}}_param_{{[0-9]+}},
# UNS: setp.lt.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u32 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: div.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u32 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: shr.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: div.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 7;
# UNS: st.global.u32 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u64 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: ld.global.nc.u32 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: cvt.u64.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: st.global.u64 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u32 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: setp.lt.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: selp.s32 {{%[a-z]+[0-9]+}}, 1, 0, {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u64 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: setp.ge.u64 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: selp.s32 {{%[a-z]+[0-9]+}}, 1, 0, {{%[a-z]+[0-9]+}};
# UNS: ld.global.nc.u32 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# UNS: cvt.u32.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: setp.lt.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# UNS: selp.s32 {{%[a-z]+[0-9]+}}, 1, 0, {{%[a-z]+[0-9]+}};
# UNS: st.global.s32 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};

# BF: .param .u16 {{[a-z_]+}}_param_{{[0-9]+}},
# BF: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: setp.lt.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# BF: ld.global.nc.u16 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# BF: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: ld.global.u16 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# BF: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: shr.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: and.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 1;
# BF: shr.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: and.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 2147483647;
# BF: setp.gt.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 2139095040;
# BF: selp.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# BF: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: shr.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: st.global.u16 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};
# BF: ld.global.nc.u16 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# BF: shl.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 16;
# BF: st.global.f32 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};

# REC: setp.lt.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+1];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+2];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+3];
# REC: cvt.s32.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# REC: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 31;
# REC: shr.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 31;
# REC: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 1;
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+1];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+2];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+3];
# REC: cvt.s32.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# REC: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 31;
# REC: shr.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 31;
# REC: shr.s32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 1;
# REC: and.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 255;
# REC: st.global.u8 [{{%[a-z]+[0-9]+}}], {{%[a-z]+[0-9]+}};
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+1];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+2];
# REC: ld.global.u8 {{%[a-z]+[0-9]+}}, [{{%[a-z]+[0-9]+}}+3];
# REC: cvt.s32.u32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}};
# REC: and.b32 {{%[a-z]+[0-9]+}}, {{%[a-z]+[0-9]+}}, 255;
# REC: st.global.u8 [{{%[a-z]+[0-9]+}}+1], {{%[a-z]+[0-9]+}};

