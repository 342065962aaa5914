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
    assert len(list(cache.entries())) == 1
    ptx = nvrtc_compile(src, "sm_90", output="ptx")
    assert b".entry k" in ptx


def test_nvrtc_error_carries_log(tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc")
    from sarek.runtime.cuda import nvrtc_compile

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    with pytest.raises(rt.DeviceError, match="(?s)NVRTC .* could not compile.*undefined"):
        nvrtc_compile('extern "C" __global__ void k() { undefined_thing(); }', "sm_90")
    assert list(cache.entries()) == []  # failures are never cached


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
