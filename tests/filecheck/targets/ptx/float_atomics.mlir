// RUN: sarek-opt %S/../Inputs/float_atomics.mlir -t 'ptx{opt=off fp=exact}' | filecheck %s
// RUN: sarek-opt %S/../Inputs/float_atomics_f64.mlir -t 'ptx{opt=off fp=exact}' | filecheck %s --check-prefix=F64
// PTX float atomics: atom.add.f32/f64 (sub and dec add the negation), atom.exch.b32/b64 and atom.cas.b32/b64
// (on the bits) are native; min/max are a compare-and-swap loop on the bits: the operand replaces only where it
// compares strictly less/greater (setp + selp), atom.cas, and again while another thread got there first.

// CHECK:       atom.global.add.f32 [[A:%f[0-9]+]], [[[V:%ud[0-9]+]]], [[X:%f[0-9]+]];
// CHECK:       neg.f32 [[NX:%f[0-9]+]], [[X]];
// CHECK-NEXT:  atom.shared.add.f32 {{%f[0-9]+}}, [[[S:%u[0-9]+]]], [[NX]];
// CHECK-NEXT:  ld.global.b32 [[OLD:%r[0-9]+]], [[[V]]];
// CHECK-NEXT: [[TOP:\$L_atomcas_[0-9]+]]:
// CHECK-NEXT:  mov.b32 [[CUR:%f[0-9]+]], [[OLD]];
// CHECK-NEXT:  setp.lt.f32 [[P:%p[0-9]+]], [[X]], [[CUR]];
// CHECK-NEXT:  selp.f32 [[NEWF:%f[0-9]+]], [[X]], [[CUR]], [[P]];
// CHECK-NEXT:  mov.b32 [[NEW:%r[0-9]+]], [[NEWF]];
// CHECK-NEXT:  atom.global.cas.b32 [[SEEN:%r[0-9]+]], [[[V]]], [[OLD]], [[NEW]];
// CHECK-NEXT:  setp.ne.b32 [[AGAIN:%p[0-9]+]], [[SEEN]], [[OLD]];
// CHECK-NEXT:  mov.b32 [[OLD]], [[SEEN]];
// CHECK-NEXT:  @[[AGAIN]] bra [[TOP]];
// CHECK-NEXT:  mov.b32 {{%f[0-9]+}}, [[OLD]];
// CHECK:       ld.shared.b32
// CHECK:       setp.gt.f32
// CHECK:       atom.shared.cas.b32
// CHECK:       atom.global.exch.b32 {{%f[0-9]+}}, [[[V]]], [[X]];
// CHECK-NEXT:  atom.shared.exch.b32 {{%f[0-9]+}}, [[[S]]], [[X]];
// CHECK-NEXT:  atom.global.cas.b32 {{%f[0-9]+}}, [[[V]]], [[X]], [[A]];
// CHECK-NEXT:  atom.shared.cas.b32 {{%f[0-9]+}}, [[[S]]], [[X]], [[A]];

// F64:       atom.global.add.f64
// F64:       atom.global.add.f64
// F64:       ld.global.b64 [[OLD:%rd[0-9]+]]
// F64:       setp.lt.f64
// F64-NEXT:  selp.f64
// F64-NEXT:  mov.b64
// F64-NEXT:  atom.global.cas.b64 [[SEEN:%rd[0-9]+]], [{{%ud[0-9]+}}], [[OLD]]
// F64-NEXT:  setp.ne.b64 {{%p[0-9]+}}, [[SEEN]], [[OLD]];
// F64:       setp.gt.f64
// F64:       atom.global.exch.b64
// F64-NEXT:  atom.global.cas.b64
