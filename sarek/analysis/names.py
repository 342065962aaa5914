"""Type-name mangling: the one place a declared type name becomes a target identifier."""


def mangle_name(name: str) -> str:
    """`Module.point` -> `Module_point`: every `.` becomes `_`, nothing else changes.

    Not injective (`A.b_c` and `A_b.c` both give `A_b_c`); the type-declaration order treats two
    declarations with one mangled name as two nodes, kind-blind, as Sarek does.
    """
    return name.replace(".", "_")
