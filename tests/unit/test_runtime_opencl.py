"""Runtime on OpenCL (pocl must be present on CI machines): marshalling, copy-back, Vector residency.

The kernels here are hand-written OpenCL C following the C-family convention (vector = buffer + int length)
so that the device is tested independently of the backend; tests/conformance runs the generated code.
"""

from pathlib import Path

import numpy as np
import pytest

import sarek.runtime as rt
from sarek.runtime.core import kernel_spec
from sarek.tools.ir import parse_module

EX = Path(__file__).parents[2] / "examples"

VADD_CL = """
__kernel void vector_add(__global const float* a, int a_len, __global const float* b, int b_len,
                         __global float* c, int c_len, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
"""


def pocl():
    for d in rt.devices():
        if d.kind == "opencl" and d.is_pocl:  # pyright: ignore
            return d
    pytest.fail(f"pocl is required on this machine (OpenCL: {rt.unavailable.get('opencl', 'no pocl platform')})")


def vadd_module():
    m = parse_module((EX / "vector_add.mlir").read_text())
    kernel_spec(m, "vector_add").cache["source:opencl"] = VADD_CL
    return m


def test_pocl_listed():
    d = pocl()
    assert d.name.startswith("opencl:")
    assert rt.get_device(d.name) is d
    assert d.limits.max_threads_per_block >= 256


def test_numpy_args_copy_back_only_written():
    d = pocl()
    m = vadd_module()
    a = np.arange(1000, dtype=np.float32)
    b = np.full(1000, 0.5, np.float32)
    c = np.zeros(1000, np.float32)
    b.flags.writeable = False  # never written back: a read-only input is fine
    rt.launch((m, "vector_add"), [a, b, c, 1000], grid=4, block=256, device=d)
    np.testing.assert_array_equal(c, a + 0.5)


def test_inputs_not_copied_back(monkeypatch):
    d = pocl()
    m = vadd_module()
    a = np.ones(16, np.float32)
    c = np.zeros(16, np.float32)
    downloads = []
    orig = type(d)._download

    def spy(self, buf, host):
        downloads.append(host)
        orig(self, buf, host)

    monkeypatch.setattr(type(d), "_download", spy)
    rt.launch((m, "vector_add"), [a, a, c, 16], grid=1, block=16, device=d)
    assert len(downloads) == 1 and downloads[0] is c


def test_vector_stays_resident():
    d = pocl()
    m = vadd_module()
    n = 512
    a = rt.Vector(np.arange(n, dtype=np.float32))
    one = rt.Vector(np.ones(n, np.float32))
    c = rt.Vector(n, np.float32)
    rt.launch((m, "vector_add"), [a, one, c, n], grid=2, block=256, device=d)
    assert (a.transfers, one.transfers, c.transfers) == (1, 1, 1)  # uploads only
    # c -> a on the device, twice: nothing moves
    rt.launch((m, "vector_add"), [c, one, a, n], grid=2, block=256, device=d)
    rt.launch((m, "vector_add"), [a, one, c, n], grid=2, block=256, device=d)
    assert (a.transfers, one.transfers, c.transfers) == (1, 1, 1)
    np.testing.assert_array_equal(c.to_numpy(), np.arange(n) + 3)
    assert c.transfers == 2  # one download
    np.testing.assert_array_equal(np.asarray(c), np.arange(n) + 3)
    assert c.transfers == 2  # host copy now valid
    c[0] = 100.0  # a host write makes the device copy stale
    rt.launch((m, "vector_add"), [c, one, a, n], grid=2, block=256, device=d)
    assert c.transfers == 3 and a.to_numpy()[0] == 101.0


def test_vector_moves_between_devices(monkeypatch):
    monkeypatch.setenv("SAREK_CACHE_DIR", "/tmp/sarek-test-cache-unused")
    d = pocl()
    m = vadd_module()
    a = rt.Vector(np.arange(8, dtype=np.float32))
    c = rt.Vector(8, np.float32)
    rt.launch((m, "vector_add"), [a, a, c, 8], grid=1, block=8, device=d)
    assert not c._host_valid
    with c.host() as h:  # download, then host-side edit
        h += 1
    np.testing.assert_array_equal(c.to_numpy(), 2 * np.arange(8) + 1)


def test_wrong_vector_dtype():
    d = pocl()
    m = vadd_module()
    a = rt.Vector(np.arange(8, dtype=np.float64))
    with pytest.raises(rt.LaunchError, match="argument 'a' .* float32, got a sarek.Vector of float64"):
        rt.launch((m, "vector_add"), [a, a, a, 8], grid=1, block=8, device=d)


def test_build_error_is_a_device_error():
    d = pocl()
    m = parse_module((EX / "vector_add.mlir").read_text())
    kernel_spec(m, "vector_add").cache["source:opencl"] = "__kernel void vector_add(__global float* a) { oops; }"
    a = np.zeros(4, np.float32)
    with pytest.raises(rt.DeviceError, match="OpenCL build of kernel 'vector_add' failed"):
        rt.launch((m, "vector_add"), [a, a, a, 4], grid=1, block=4, device=d)


def test_kernel_workgroup_limit():
    d = pocl()
    m = vadd_module()
    a = np.zeros(4, np.float32)
    with pytest.raises(rt.LaunchError, match="per block"):
        rt.launch((m, "vector_add"), [a, a, a, 4], grid=1, block=d.limits.max_threads_per_block * 2, device=d)
