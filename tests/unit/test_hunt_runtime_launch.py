"""Launch API bugs found by a bug hunt: every user error is a sarek exception naming what was wrong, and
valid-but-unusual arguments give the same result on every device of this machine (interp, interp-ref, pocl,
WGSL and GLSL on lavapipe)."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, f32, f64, i32, kernel, record  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.runtime import LaunchError  # noqa: E402

DEVICES = ["interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl"]


@kernel
def vadd(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        c[i] = a[i] + b[i]


@kernel
def lens(a: Vec[f32], out: Vec[i32]):
    if global_thread_id == 0:
        out[0] = len(a)


@kernel
def two_writes(a: Vec[i32], b: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        if i % 2 == 0:
            a[i] = 1
        else:
            b[i] = 2


@kernel
def swizzle_names(a: Vec[f32], x: f32, y: f32, n: i32):
    i = global_thread_id
    if i < n:
        a[i] = x * 10.0 + y


@kernel
def scale(a: Vec[f32], s: f32, n: i32):
    i = global_thread_id
    if i < n:
        a[i] = a[i] * s


@record
class HuntPoint:
    x: f32
    y: f32


@kernel
def sum_points(p: Vec[HuntPoint], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = p[i].x + p[i].y


@kernel
def use_point(out: Vec[f32], p: HuntPoint):
    if global_thread_id == 0:
        out[0] = p.x


def test_runtime_names_are_exported():
    """`sarek.launch` and the exception classes a user catches are reachable from `sarek`."""
    assert sarek.launch is sarek.runtime.launch
    assert sarek.LaunchError is LaunchError
    assert issubclass(sarek.DeviceError, sarek.SarekError)
    assert issubclass(sarek.CompileError, sarek.SarekError) and issubclass(LaunchError, sarek.SarekError)
    c = np.zeros(4, np.float32)
    sarek.launch(vadd, [np.ones(4, np.float32), np.ones(4, np.float32), c, 4], grid=1, block=4)
    assert c.tolist() == [2.0] * 4


@pytest.mark.parametrize("bad", [2.5, 2.0, None, (1, 2, 3, 4), (), "4", ("4",), (2.7,), np.float32(2)])
@pytest.mark.parametrize("what", ["grid", "block"])
def test_bad_grid_block_is_a_launch_error(what, bad):
    """Kernel.launch used to convert grid/block itself: floats and strings were silently truncated/parsed and
    a 4-tuple or None gave a raw ValueError/TypeError."""
    a = np.ones(4, np.float32)
    kw = {"grid": 1, "block": 4, what: bad}
    with pytest.raises(LaunchError, match=f"{what}"):
        vadd.launch(a, a, np.zeros(4, np.float32), 4, **kw)


def test_numpy_integer_grid_block():
    a = np.ones(4, np.float32)
    c = np.zeros(4, np.float32)
    vadd.launch(a, a, c, 4, grid=np.int64(1), block=(np.int32(4),))
    assert c.tolist() == [2.0] * 4


@pytest.mark.parametrize("dev", DEVICES)
def test_2d_arrays_are_their_elements(dev):
    """A C-contiguous 2-D array is a vector of all its elements on every device (Vulkan used len(a) = the
    first dimension: a raw 'Invalid data_length' from wgpu)."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    c = np.zeros((3, 4), np.float32)
    vadd.launch(a, a, c, 12, grid=1, block=16, device=dev)
    assert (c == 2 * a).all()
    out = np.zeros(1, np.int32)
    lens.launch(a, out, grid=1, block=1, device=dev)
    assert out[0] == 12


@pytest.mark.parametrize("dev", DEVICES)
def test_same_array_passed_twice_is_one_vector(dev):
    """Both parameters written, one array: every write lands (buffer devices used to copy back each
    parameter's own buffer, the last overwriting the first; interp-ref split the array in two)."""
    x = np.zeros(8, np.int32)
    two_writes.launch(x, x, 8, grid=1, block=8, device=dev)
    assert x.tolist() == [1, 2] * 4
    v = sarek.Vector(np.zeros(8, np.int32))
    two_writes.launch(v, v, 8, grid=1, block=8, device=dev)
    assert v.to_numpy().tolist() == [1, 2] * 4


@pytest.mark.parametrize("dev", DEVICES)
def test_read_only_inputs(dev):
    """A read-only array the kernel only reads is fine everywhere (interp-ref wrote every vector back:
    'assignment destination is read-only'; the fast executor did so for record vectors)."""
    a = np.ones(4, np.float32)
    a.flags.writeable = False
    c = np.zeros(4, np.float32)
    vadd.launch(a, a, c, 4, grid=1, block=4, device=dev)
    assert c.tolist() == [2.0] * 4
    p = np.zeros(4, HuntPoint.dtype)
    p["x"], p["y"] = 1.0, 2.0
    p.flags.writeable = False
    out = np.zeros(4, np.float32)
    sum_points.launch(p, out, 4, grid=1, block=4, device=dev)
    assert out.tolist() == [3.0] * 4


@pytest.mark.parametrize("dev", DEVICES)
def test_scalar_parameters_named_like_swizzles(dev):
    """GLSL passes scalars as `#define x pc.x`, which rewrote `gl_GlobalInvocationID.x` (glslang: 'pc' :
    unknown swizzle selection) for any parameter named x, y, z, w, xy, rgb ..."""
    a = np.zeros(4, np.float32)
    swizzle_names.launch(a, 1.0, 2.0, 4, grid=1, block=4, device=dev)
    assert a.tolist() == [12.0] * 4


def test_float_scalar_that_does_not_fit():
    a = np.ones(2, np.float32)
    with pytest.raises(LaunchError, match=r"argument 's' \(#2\): 1e\+300 does not fit in float32"):
        scale.launch(a, 1e300, 2, grid=1, block=2)
    with pytest.raises(LaunchError, match="does not fit in float32"):
        scale.launch(a, 10**400, 2, grid=1, block=2)
    scale.launch(a, float("inf"), 2, grid=1, block=2)  # an infinity is a float32 value
    assert np.isinf(a).all()


def test_record_parameter_named_in_messages():
    with pytest.raises(LaunchError, match=r"argument 'p' \(#2\) expects a HuntPoint value"):
        use_point.launch(np.zeros(1, np.float32), 1.0, grid=1, block=1)
    with pytest.raises(LaunchError, match=r"argument 'p' \(#1\) expects a vector of HuntPoint \(structured"):
        sum_points.launch(np.zeros(4, np.float32), np.zeros(4, np.float32), 4, grid=1, block=4)


def test_vector_constructor_errors_and_sarek_types():
    assert sarek.Vector(3, f32).dtype == np.float32
    assert sarek.Vector(3, HuntPoint).dtype == HuntPoint.dtype
    with pytest.raises(ValueError, match="n must be at least 0, got -1"):
        sarek.Vector(-1, np.float32)
    with pytest.raises(TypeError, match="cannot go to a device"):
        sarek.Vector(["a", "b"])
    with pytest.raises(TypeError, match="is not an element type"):
        sarek.Vector(3, object())


@pytest.mark.parametrize("dev", ["vulkan", "vulkan-glsl"])
def test_vector_beyond_the_storage_buffer_limit(dev):
    """wgpu failed at bind-group creation with a raw GPUValidationError ('exceeds max_*_buffer_binding_size');
    the limit is the adapter's (wgpu) or the driver's maxStorageBufferRange (vulkan-glsl)."""
    d = sarek.get_device(dev)
    most = d.max_buffer_bytes  # pyright: ignore[reportAttributeAccessIssue]
    assert most == (int(d.device.limits["max-storage-buffer-binding-size"]) if dev == "vulkan"  # pyright: ignore
                    else min(d._max_buffer_bytes(), int(d.info.limits["maxStorageBufferRange"])))  # pyright: ignore
    n = most // 4 + 1
    big = np.zeros(n, np.float32)  # calloc'd pages: never touched, the launch is refused first
    small = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=rf"vector 'a' takes {4 * n} bytes on {dev}:0; a storage buffer there "
                                          rf"holds at most {most} bytes"):
        vadd.launch(big, small, small, 4, grid=1, block=4, device=d)


def test_glsl_block_z_limit_is_glslangs():
    """glslang refuses local_size_z > 64 whatever the adapter allows: a LaunchError before compiling, not a
    DeviceError from glslangValidator."""
    a = np.ones(128, np.float32)
    with pytest.raises(LaunchError, match=r"block \(1, 1, 128\) exceeds device vulkan-glsl:0's limit"):
        vadd.launch(a, a, np.zeros(128, np.float32), 128, grid=1, block=(1, 1, 128), device="vulkan-glsl")


@kernel
def double_it(a: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = a[i] * 2.0


def test_target_refusal_at_launch_is_a_compile_error():
    """A target refusing the kernel (no f64 in WGSL) came out of launch as a bare SarekError without the
    source line; `k.source("wgsl")` gave a CompileError with it. Both are CompileErrors now."""
    a = np.ones(4, np.float64)
    with pytest.raises(sarek.CompileError) as launched:
        double_it.launch(a, 4, grid=1, block=4, device="vulkan")
    with pytest.raises(sarek.CompileError) as emitted:
        double_it.source("wgsl")
    assert str(launched.value) == str(emitted.value)
    assert "float64 not yet supported" in str(launched.value) and "def double_it(" in str(launched.value)


def test_opencl_shared_memory_beyond_the_device(tmp_path):
    """pocl aborted the Python process (an assertion in pthread_utils.c) on shared arrays larger than the
    device's local memory; a LaunchError now. Run in a child process: without the check it dies."""
    import subprocess
    import sys
    import textwrap

    p = tmp_path / "bigshared.py"
    p.write_text(textwrap.dedent('''
        import numpy as np
        import sarek
        from sarek import kernel, Vec, f32, i32
        from sarek.gpu import thread_idx_x, shared, barrier

        @kernel
        def bigshared(a: Vec[f32], n: i32):
            s = shared(f32, 2000000)
            t = thread_idx_x
            s[t] = a[t]
            barrier()
            if t < n:
                a[t] = s[t] + 1.0

        try:
            bigshared.launch(np.ones(4, np.float32), 4, grid=1, block=4, device="opencl")
        except sarek.LaunchError as e:
            print(e)
    '''))
    r = subprocess.run([sys.executable, str(p)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "kernel bigshared needs 8000000 bytes of shared memory per block; opencl:0 has" in r.stdout


@pytest.mark.parametrize("thing", [5, print, int])
def test_decorators_on_non_functions(thing):
    """`sarek.kernel(5)`, `sarek.compile(print)`: an AttributeError ('no attribute __name__' / '__code__')
    from deep inside; a CompileError saying what the decorator applies to now."""
    for deco, what in [(sarek.kernel, "@sarek.kernel"), (sarek.device, "@sarek.device"), (sarek.compile, "@sarek.kernel")]:
        with pytest.raises(sarek.CompileError, match=f"{what} applies to a Python function"):
            deco(thing)
