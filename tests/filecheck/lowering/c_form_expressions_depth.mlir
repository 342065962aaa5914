// RUN: sarek-opt %s -p 'sarek-c-form-expressions' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-c-form-expressions' | grep -c 'sarek_c.decl' | filecheck %s --check-prefix=COUNT

// A tree deeper than MAX_INLINE_DEPTH (64) keeps a temporary: of a chain of 70 single-use sums, the 65th
// (64 folded sums below it) stays a declaration and the rest fold; the count restarts above it.
builtin.module {
  sarek_c.func "__global__" "void" @k(%v : "int*" "v", %i : "int" "i") {
    %x0 = sarek_c.decl "sarek_x" %i : "int" attributes {sarek_c.temp = "x"}
    %e1 = sarek_c.binary "+" %x0, %i : "int"
    %x1 = sarek_c.decl "sarek_x_1" %e1 : "int" attributes {sarek_c.temp = "x"}
    %e2 = sarek_c.binary "+" %x1, %i : "int"
    %x2 = sarek_c.decl "sarek_x_2" %e2 : "int" attributes {sarek_c.temp = "x"}
    %e3 = sarek_c.binary "+" %x2, %i : "int"
    %x3 = sarek_c.decl "sarek_x_3" %e3 : "int" attributes {sarek_c.temp = "x"}
    %e4 = sarek_c.binary "+" %x3, %i : "int"
    %x4 = sarek_c.decl "sarek_x_4" %e4 : "int" attributes {sarek_c.temp = "x"}
    %e5 = sarek_c.binary "+" %x4, %i : "int"
    %x5 = sarek_c.decl "sarek_x_5" %e5 : "int" attributes {sarek_c.temp = "x"}
    %e6 = sarek_c.binary "+" %x5, %i : "int"
    %x6 = sarek_c.decl "sarek_x_6" %e6 : "int" attributes {sarek_c.temp = "x"}
    %e7 = sarek_c.binary "+" %x6, %i : "int"
    %x7 = sarek_c.decl "sarek_x_7" %e7 : "int" attributes {sarek_c.temp = "x"}
    %e8 = sarek_c.binary "+" %x7, %i : "int"
    %x8 = sarek_c.decl "sarek_x_8" %e8 : "int" attributes {sarek_c.temp = "x"}
    %e9 = sarek_c.binary "+" %x8, %i : "int"
    %x9 = sarek_c.decl "sarek_x_9" %e9 : "int" attributes {sarek_c.temp = "x"}
    %e10 = sarek_c.binary "+" %x9, %i : "int"
    %x10 = sarek_c.decl "sarek_x_10" %e10 : "int" attributes {sarek_c.temp = "x"}
    %e11 = sarek_c.binary "+" %x10, %i : "int"
    %x11 = sarek_c.decl "sarek_x_11" %e11 : "int" attributes {sarek_c.temp = "x"}
    %e12 = sarek_c.binary "+" %x11, %i : "int"
    %x12 = sarek_c.decl "sarek_x_12" %e12 : "int" attributes {sarek_c.temp = "x"}
    %e13 = sarek_c.binary "+" %x12, %i : "int"
    %x13 = sarek_c.decl "sarek_x_13" %e13 : "int" attributes {sarek_c.temp = "x"}
    %e14 = sarek_c.binary "+" %x13, %i : "int"
    %x14 = sarek_c.decl "sarek_x_14" %e14 : "int" attributes {sarek_c.temp = "x"}
    %e15 = sarek_c.binary "+" %x14, %i : "int"
    %x15 = sarek_c.decl "sarek_x_15" %e15 : "int" attributes {sarek_c.temp = "x"}
    %e16 = sarek_c.binary "+" %x15, %i : "int"
    %x16 = sarek_c.decl "sarek_x_16" %e16 : "int" attributes {sarek_c.temp = "x"}
    %e17 = sarek_c.binary "+" %x16, %i : "int"
    %x17 = sarek_c.decl "sarek_x_17" %e17 : "int" attributes {sarek_c.temp = "x"}
    %e18 = sarek_c.binary "+" %x17, %i : "int"
    %x18 = sarek_c.decl "sarek_x_18" %e18 : "int" attributes {sarek_c.temp = "x"}
    %e19 = sarek_c.binary "+" %x18, %i : "int"
    %x19 = sarek_c.decl "sarek_x_19" %e19 : "int" attributes {sarek_c.temp = "x"}
    %e20 = sarek_c.binary "+" %x19, %i : "int"
    %x20 = sarek_c.decl "sarek_x_20" %e20 : "int" attributes {sarek_c.temp = "x"}
    %e21 = sarek_c.binary "+" %x20, %i : "int"
    %x21 = sarek_c.decl "sarek_x_21" %e21 : "int" attributes {sarek_c.temp = "x"}
    %e22 = sarek_c.binary "+" %x21, %i : "int"
    %x22 = sarek_c.decl "sarek_x_22" %e22 : "int" attributes {sarek_c.temp = "x"}
    %e23 = sarek_c.binary "+" %x22, %i : "int"
    %x23 = sarek_c.decl "sarek_x_23" %e23 : "int" attributes {sarek_c.temp = "x"}
    %e24 = sarek_c.binary "+" %x23, %i : "int"
    %x24 = sarek_c.decl "sarek_x_24" %e24 : "int" attributes {sarek_c.temp = "x"}
    %e25 = sarek_c.binary "+" %x24, %i : "int"
    %x25 = sarek_c.decl "sarek_x_25" %e25 : "int" attributes {sarek_c.temp = "x"}
    %e26 = sarek_c.binary "+" %x25, %i : "int"
    %x26 = sarek_c.decl "sarek_x_26" %e26 : "int" attributes {sarek_c.temp = "x"}
    %e27 = sarek_c.binary "+" %x26, %i : "int"
    %x27 = sarek_c.decl "sarek_x_27" %e27 : "int" attributes {sarek_c.temp = "x"}
    %e28 = sarek_c.binary "+" %x27, %i : "int"
    %x28 = sarek_c.decl "sarek_x_28" %e28 : "int" attributes {sarek_c.temp = "x"}
    %e29 = sarek_c.binary "+" %x28, %i : "int"
    %x29 = sarek_c.decl "sarek_x_29" %e29 : "int" attributes {sarek_c.temp = "x"}
    %e30 = sarek_c.binary "+" %x29, %i : "int"
    %x30 = sarek_c.decl "sarek_x_30" %e30 : "int" attributes {sarek_c.temp = "x"}
    %e31 = sarek_c.binary "+" %x30, %i : "int"
    %x31 = sarek_c.decl "sarek_x_31" %e31 : "int" attributes {sarek_c.temp = "x"}
    %e32 = sarek_c.binary "+" %x31, %i : "int"
    %x32 = sarek_c.decl "sarek_x_32" %e32 : "int" attributes {sarek_c.temp = "x"}
    %e33 = sarek_c.binary "+" %x32, %i : "int"
    %x33 = sarek_c.decl "sarek_x_33" %e33 : "int" attributes {sarek_c.temp = "x"}
    %e34 = sarek_c.binary "+" %x33, %i : "int"
    %x34 = sarek_c.decl "sarek_x_34" %e34 : "int" attributes {sarek_c.temp = "x"}
    %e35 = sarek_c.binary "+" %x34, %i : "int"
    %x35 = sarek_c.decl "sarek_x_35" %e35 : "int" attributes {sarek_c.temp = "x"}
    %e36 = sarek_c.binary "+" %x35, %i : "int"
    %x36 = sarek_c.decl "sarek_x_36" %e36 : "int" attributes {sarek_c.temp = "x"}
    %e37 = sarek_c.binary "+" %x36, %i : "int"
    %x37 = sarek_c.decl "sarek_x_37" %e37 : "int" attributes {sarek_c.temp = "x"}
    %e38 = sarek_c.binary "+" %x37, %i : "int"
    %x38 = sarek_c.decl "sarek_x_38" %e38 : "int" attributes {sarek_c.temp = "x"}
    %e39 = sarek_c.binary "+" %x38, %i : "int"
    %x39 = sarek_c.decl "sarek_x_39" %e39 : "int" attributes {sarek_c.temp = "x"}
    %e40 = sarek_c.binary "+" %x39, %i : "int"
    %x40 = sarek_c.decl "sarek_x_40" %e40 : "int" attributes {sarek_c.temp = "x"}
    %e41 = sarek_c.binary "+" %x40, %i : "int"
    %x41 = sarek_c.decl "sarek_x_41" %e41 : "int" attributes {sarek_c.temp = "x"}
    %e42 = sarek_c.binary "+" %x41, %i : "int"
    %x42 = sarek_c.decl "sarek_x_42" %e42 : "int" attributes {sarek_c.temp = "x"}
    %e43 = sarek_c.binary "+" %x42, %i : "int"
    %x43 = sarek_c.decl "sarek_x_43" %e43 : "int" attributes {sarek_c.temp = "x"}
    %e44 = sarek_c.binary "+" %x43, %i : "int"
    %x44 = sarek_c.decl "sarek_x_44" %e44 : "int" attributes {sarek_c.temp = "x"}
    %e45 = sarek_c.binary "+" %x44, %i : "int"
    %x45 = sarek_c.decl "sarek_x_45" %e45 : "int" attributes {sarek_c.temp = "x"}
    %e46 = sarek_c.binary "+" %x45, %i : "int"
    %x46 = sarek_c.decl "sarek_x_46" %e46 : "int" attributes {sarek_c.temp = "x"}
    %e47 = sarek_c.binary "+" %x46, %i : "int"
    %x47 = sarek_c.decl "sarek_x_47" %e47 : "int" attributes {sarek_c.temp = "x"}
    %e48 = sarek_c.binary "+" %x47, %i : "int"
    %x48 = sarek_c.decl "sarek_x_48" %e48 : "int" attributes {sarek_c.temp = "x"}
    %e49 = sarek_c.binary "+" %x48, %i : "int"
    %x49 = sarek_c.decl "sarek_x_49" %e49 : "int" attributes {sarek_c.temp = "x"}
    %e50 = sarek_c.binary "+" %x49, %i : "int"
    %x50 = sarek_c.decl "sarek_x_50" %e50 : "int" attributes {sarek_c.temp = "x"}
    %e51 = sarek_c.binary "+" %x50, %i : "int"
    %x51 = sarek_c.decl "sarek_x_51" %e51 : "int" attributes {sarek_c.temp = "x"}
    %e52 = sarek_c.binary "+" %x51, %i : "int"
    %x52 = sarek_c.decl "sarek_x_52" %e52 : "int" attributes {sarek_c.temp = "x"}
    %e53 = sarek_c.binary "+" %x52, %i : "int"
    %x53 = sarek_c.decl "sarek_x_53" %e53 : "int" attributes {sarek_c.temp = "x"}
    %e54 = sarek_c.binary "+" %x53, %i : "int"
    %x54 = sarek_c.decl "sarek_x_54" %e54 : "int" attributes {sarek_c.temp = "x"}
    %e55 = sarek_c.binary "+" %x54, %i : "int"
    %x55 = sarek_c.decl "sarek_x_55" %e55 : "int" attributes {sarek_c.temp = "x"}
    %e56 = sarek_c.binary "+" %x55, %i : "int"
    %x56 = sarek_c.decl "sarek_x_56" %e56 : "int" attributes {sarek_c.temp = "x"}
    %e57 = sarek_c.binary "+" %x56, %i : "int"
    %x57 = sarek_c.decl "sarek_x_57" %e57 : "int" attributes {sarek_c.temp = "x"}
    %e58 = sarek_c.binary "+" %x57, %i : "int"
    %x58 = sarek_c.decl "sarek_x_58" %e58 : "int" attributes {sarek_c.temp = "x"}
    %e59 = sarek_c.binary "+" %x58, %i : "int"
    %x59 = sarek_c.decl "sarek_x_59" %e59 : "int" attributes {sarek_c.temp = "x"}
    %e60 = sarek_c.binary "+" %x59, %i : "int"
    %x60 = sarek_c.decl "sarek_x_60" %e60 : "int" attributes {sarek_c.temp = "x"}
    %e61 = sarek_c.binary "+" %x60, %i : "int"
    %x61 = sarek_c.decl "sarek_x_61" %e61 : "int" attributes {sarek_c.temp = "x"}
    %e62 = sarek_c.binary "+" %x61, %i : "int"
    %x62 = sarek_c.decl "sarek_x_62" %e62 : "int" attributes {sarek_c.temp = "x"}
    %e63 = sarek_c.binary "+" %x62, %i : "int"
    %x63 = sarek_c.decl "sarek_x_63" %e63 : "int" attributes {sarek_c.temp = "x"}
    %e64 = sarek_c.binary "+" %x63, %i : "int"
    %x64 = sarek_c.decl "sarek_x_64" %e64 : "int" attributes {sarek_c.temp = "x"}
    %e65 = sarek_c.binary "+" %x64, %i : "int"
    %x65 = sarek_c.decl "sarek_x_65" %e65 : "int" attributes {sarek_c.temp = "x"}
    %e66 = sarek_c.binary "+" %x65, %i : "int"
    %x66 = sarek_c.decl "sarek_x_66" %e66 : "int" attributes {sarek_c.temp = "x"}
    %e67 = sarek_c.binary "+" %x66, %i : "int"
    %x67 = sarek_c.decl "sarek_x_67" %e67 : "int" attributes {sarek_c.temp = "x"}
    %e68 = sarek_c.binary "+" %x67, %i : "int"
    %x68 = sarek_c.decl "sarek_x_68" %e68 : "int" attributes {sarek_c.temp = "x"}
    %e69 = sarek_c.binary "+" %x68, %i : "int"
    %x69 = sarek_c.decl "sarek_x_69" %e69 : "int" attributes {sarek_c.temp = "x"}
    %e70 = sarek_c.binary "+" %x69, %i : "int"
    %x70 = sarek_c.decl "sarek_x_70" %e70 : "int" attributes {sarek_c.temp = "x"}
    %p = sarek_c.index %v[%i] : "int"
    sarek_c.assign %p = %x70
  }
}
// CHECK:     %e64 = sarek_c.binary "+" %e63, %i : "int"
// CHECK-NEXT: %e65 = sarek_c.binary "+" %e64, %i : "int"
// CHECK-NEXT: %x65 = sarek_c.decl "sarek_x" %e65 : "int"
// CHECK-NEXT: %e66 = sarek_c.binary "+" %x65, %i : "int"
// CHECK:      sarek_c.assign %p = %e70
// COUNT: 1
