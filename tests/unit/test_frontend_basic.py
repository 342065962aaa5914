"""Front end: kernels compile to verified sarek IR with a location on every op."""

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc

import sarek
from sarek import Vec, f32, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def vector_add(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        c[i] = a[i] + b[i]


def test_vector_add_ir_verifies():
    m = vector_add.module
    m.verify()
    text = vector_add.ir()
    assert "sarek.kernel @vector_add" in text
    assert "sarek.binop add" in text


def test_every_op_located():
    for op in vector_add.module.walk():
        if op is vector_add.module:
            continue
        assert isinstance(op.location, FileLineColLoc), op.name
        assert op.location.filename.data == __file__


def test_compile_eager_returns_kernel():
    assert sarek.compile(vector_add) is vector_add
