# RUN: not sarek ir %s:rebind 2>&1 | filecheck %s --check-prefix=REBIND
# RUN: not sarek ir %s:notuple 2>&1 | filecheck %s --check-prefix=NOTUPLE
# RUN: not sarek ir %s:strings 2>&1 | filecheck %s --check-prefix=STRINGS
# RUN: sarek ir %s:passview | filecheck %s --check-prefix=PASSVIEW
# RUN: not sarek ir %s:xorbool 2>&1 | filecheck %s --check-prefix=XORBOOL

from sarek import Vec, device, f32, i32, kernel, u32

NAMES = ("a", "b")


@kernel
def rebind(a: Vec[f32], b: Vec[f32]):
    a = b

# REBIND: python_semantics_errors.py:14:5: error: cannot rebind vector parameter 'a' (its elements are written in place


@device
def one(x: f32) -> f32:
    return x, x

# NOTUPLE: python_semantics_errors.py:21:12: error: device function 'one' returns f32, not a tuple (annotate it '-> tuple[f32, f32]'


@kernel
def notuple(a: Vec[f32]):
    a[0] = one(a[0])


@kernel
def strings(a: Vec[f32], i: i32):
    a[0] = NAMES[i]

# STRINGS: python_semantics_errors.py:33:12: error: 'NAMES' is not a table of numbers


@device
def first(v: Vec[f32]) -> f32:
    return v[0]


@kernel
def passview(a: Vec[f32], b: Vec[f32], c: bool):
    w = a if c else b
    a[0] = first(w)

# PASSVIEW: sarek.call @first_view_0saa(%a, %b, %c)


@kernel
def xorbool(o: Vec[u32], n: i32):
    o[0] = u32(n) ^ (n > 2)

# XORBOOL: python_semantics_errors.py:53:12: error: type mismatch in '^': u32 and bool: a bool is not an integer in kernels; convert the bool, e.g. u32(c)
