"""CUDA: NVRTC compiles here (no driver needed); launching needs an NVIDIA GPU (scripts/gpu_check.py)."""

import pytest

import sarek.runtime as rt
from sarek.runtime import cache


def test_nvrtc_compiles_to_cubin(tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")
    from sarek.runtime.cuda import nvrtc_compile

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    src = 'extern "C" __global__ void k(float* a, int a_len, int n) { int i = threadIdx.x; if (i < n) a[i] += 1.0f; }'
    cubin = nvrtc_compile(src, "sm_90")
    assert cubin.startswith(b"\x7fELF")
    assert nvrtc_compile(src, "sm_90") == cubin  # from the cache
    assert [p.parent.parent.name for p in cache.entries() if p.parent.parent.name != "nvrtc-version"] == ["nvrtc-cubin"]
    ptx = nvrtc_compile(src, "sm_90", output="ptx")
    assert b".entry k" in ptx


def test_nvrtc_version_is_asked_once_per_installation(tmp_path, monkeypatch):
    """A warm launch starts no child process for NVRTC's version: it is kept under where NVRTC loads from."""
    import sarek.runtime.nvrtc as cu

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    asked: list[int] = []
    monkeypatch.setattr(cu, "_ask_nvrtc_version", lambda: asked.append(1) or "12.8")
    where = ["install-a"]
    monkeypatch.setattr(cu, "nvrtc_fingerprint", lambda: where[0])
    for _ in range(3):  # three fresh processes
        cu.nvrtc_version.cache_clear()
        assert cu.nvrtc_version() == "12.8"
    assert asked == [1]
    where[0] = "install-b"  # another libnvrtc: asked again
    cu.nvrtc_version.cache_clear()
    assert cu.nvrtc_version() == "12.8" and asked == [1, 1]
    cu.nvrtc_version.cache_clear()


def test_nvrtc_fingerprint_follows_the_library(tmp_path, monkeypatch):
    import sarek.runtime.nvrtc as cu

    lib = tmp_path / "libnvrtc.so.13"
    lib.write_bytes(b"a")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path.parent))
    monkeypatch.setenv("LD_LIBRARY_PATH", str(tmp_path))
    a = cu.nvrtc_fingerprint()
    assert str(lib) in a
    lib.write_bytes(b"ab")
    assert cu.nvrtc_fingerprint() != a


def test_nvrtc_error_carries_log(tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")
    from sarek.runtime.cuda import nvrtc_compile

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    with pytest.raises(rt.DeviceError, match="(?s)NVRTC .* could not compile.*undefined"):
        nvrtc_compile('extern "C" __global__ void k() { undefined_thing(); }', "sm_90")
    assert [p for p in cache.entries() if p.parent.parent.name != "nvrtc-version"] == []  # failures: never cached


def test_cuda_listed_only_with_a_driver():
    names = rt.device_names()
    if any(n.startswith("cuda:") for n in names):
        assert rt.get_device("cuda").kind == "cuda"
    else:
        assert "cuda" in rt.unavailable


def _cuda():
    d = [x for x in rt.devices() if x.kind == "cuda"]
    if not d:
        raise AssertionError(f"no CUDA device here ({rt.unavailable.get('cuda')}); scripts/gpu_check.py runs these on the GPU")
    return d[0]


@pytest.mark.gpu
def test_cuda_launch_numpy_and_vector():
    import numpy as np
    from pathlib import Path

    from sarek.tools.ir import parse_module

    d = _cuda()
    m = parse_module((Path(__file__).parents[2] / "examples" / "vector_add.mlir").read_text())
    a = np.arange(1000, dtype=np.float32)
    c = np.zeros(1000, np.float32)
    rt.launch((m, "vector_add"), [a, a, c, 1000], grid=4, block=256, device=d)
    np.testing.assert_array_equal(c, 2 * a)
    va, vc = rt.Vector(a), rt.Vector(1000, np.float32)
    rt.launch((m, "vector_add"), [va, va, vc, 1000], grid=4, block=256, device=d)
    rt.launch((m, "vector_add"), [vc, vc, va, 1000], grid=4, block=256, device=d)
    # one upload each: a fresh Vector's device copy is stale until uploaded (the kernel may write only part of
    # it); vc is then valid on the device, so reading it in the second launch transfers nothing
    assert (va.transfers, vc.transfers) == (1, 1)
    np.testing.assert_array_equal(va.to_numpy(), 4 * a)
    with pytest.raises(rt.LaunchError, match="per block"):
        rt.launch((m, "vector_add"), [a, a, c, 1000], grid=1, block=2048, device=d)
