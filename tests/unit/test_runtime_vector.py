"""sarek.Vector on the interpreter and across devices; launch through the front end and SAREK_DEVICE."""

from pathlib import Path

import numpy as np
import pytest

import sarek.runtime as rt
from sarek.tools.ir import parse_module

EX = Path(__file__).parents[2] / "examples"


def vadd():
    return parse_module((EX / "vector_add.mlir").read_text()), "vector_add"


def test_vector_basics():
    v = rt.Vector(np.arange(6, dtype=np.float32))
    assert (len(v), v.dtype, v.shape) == (6, np.float32, (6,))
    z = rt.Vector(4, np.int32)
    assert z.to_numpy().tolist() == [0, 0, 0, 0]
    with pytest.raises(TypeError):
        rt.Vector(4)
    with pytest.raises(ValueError):
        v.copy_from(np.zeros(3))
    assert "valid on host" in repr(v)


@pytest.mark.parametrize("dev", ["interp", "interp-ref"])
def test_vector_on_interp(dev):
    k = vadd()
    a = rt.Vector(np.arange(8, dtype=np.float32))
    c = rt.Vector(8, np.float32)
    rt.launch(k, [a, a, c, 8], grid=1, block=8, device=dev)
    assert c.to_numpy().tolist() == [2.0 * i for i in range(8)]
    assert c.transfers == 0  # the interpreter works on the host copy


def test_vector_interp_then_opencl_then_interp():
    k = vadd()
    ocl = rt.get_device("opencl")
    a = rt.Vector(np.arange(8, dtype=np.float32))
    c = rt.Vector(8, np.float32)
    rt.launch(k, [a, a, c, 8], grid=1, block=8, device="interp")
    rt.launch(k, [c, a, c, 8], grid=1, block=8, device=ocl)   # c: 3i, valid on opencl only
    rt.launch(k, [c, c, a, 8], grid=1, block=8, device="interp")  # downloads c, writes a on the host
    assert a.to_numpy().tolist() == [6.0 * i for i in range(8)]


def test_sarek_device_env(monkeypatch):
    m, name = vadd()
    a = np.ones(4, np.float32)
    c = np.zeros(4, np.float32)
    monkeypatch.setenv("SAREK_DEVICE", "opencl")
    assert rt.default_device().kind == "opencl"
    rt.launch((m, name), [a, a, c, 4], grid=1, block=4)
    assert c.tolist() == [2.0] * 4


def test_frontend_kernel_launch():
    import sarek
    from sarek import Vec, f32, i32, kernel
    from sarek.gpu import global_thread_id

    @kernel
    def axpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
        i = global_thread_id
        if i < n:
            y[i] = a * x[i] + y[i]

    x = np.arange(10, dtype=np.float32)
    for dev in ("interp", "opencl"):
        y = np.ones(10, np.float32)
        axpy.launch(x, y, 2.0, 10, grid=1, block=16, device=dev)
        np.testing.assert_allclose(y, 2 * x + 1)
    with pytest.raises(sarek.runtime.LaunchError, match=r"axpy\(x, y, a, n\) takes 4"):
        axpy.launch(x, y, 10, grid=1, block=16)
