"""NVRTC, the CUDA device's compiler: CUDA C -> cubin (or PTX), cached by source, architecture, options and
NVRTC's version, run in a child process unless SAREK_NVRTC_INPROCESS=1 (see `nvrtc_compile`). The CUDA device
(`sarek.runtime.cuda`) and the tests that check generated CUDA C use it; nothing here touches a device.
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import Any

from sarek.runtime import cache
from sarek.runtime.core import DeviceError


def _nvrtc() -> Any:
    """`cuda.bindings.nvrtc` (a Cython module without type stubs)."""
    return importlib.import_module("cuda.bindings.nvrtc")


def cuda_include_dirs() -> list[str]:
    dirs: list[str] = []
    for env in ("CUDA_HOME", "CUDA_PATH"):
        v = os.environ.get(env)
        if v:
            dirs.append(os.path.join(v, "include"))
    dirs.append("/usr/local/cuda/include")
    try:  # headers shipped in pip wheels (nvidia-cuda-runtime / cuda-toolkit)
        nvidia = importlib.import_module("nvidia")

        for base in getattr(nvidia, "__path__", []):
            for sub in ("cuda_runtime/include", "cu13/include", "cuda_nvrtc/include"):
                dirs.append(os.path.join(base, sub))
    except ImportError:
        pass
    found = [d for d in dict.fromkeys(dirs) if os.path.isfile(os.path.join(d, "cuda_fp16.h"))]
    # CUDA 13 keeps libcu++ (cuda/std/..., which cooperative_groups.h includes: grid_barrier) under include/cccl
    return found + [c for d in found if os.path.isdir(c := os.path.join(d, "cccl"))]


@functools.lru_cache(maxsize=1)
def nvrtc_version() -> str:
    """NVRTC's version (part of every cubin's cache key), asked once per installation: the answer is kept in the
    compile cache under `nvrtc_fingerprint()`, so a warm launch starts no child process (one cost ~100 ms)."""
    key = cache.make_key("nvrtc-version", nvrtc_fingerprint())
    got = cache.get("nvrtc-version", key)
    if got is not None:
        return got.decode(errors="replace")
    v = _ask_nvrtc_version()
    if v != "unknown":
        cache.put("nvrtc-version", key, v.encode())
    return v


def nvrtc_fingerprint() -> str:
    """Where NVRTC can be loaded from, without loading it: path, size and mtime of cuda.bindings' nvrtc modules
    and of every libnvrtc in the places its loader searches (the pip wheels' `nvidia/*/lib`, $CUDA_HOME,
    $CUDA_PATH, /usr/local/cuda, $LD_LIBRARY_PATH), and those variables. An upgrade or another library rewrites
    one of them."""
    import glob
    import importlib.util

    env = [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH")]
    dirs = [os.path.join(e, sub) for e in env[:2] if e for sub in ("lib64", "lib")]
    dirs += ["/usr/local/cuda/lib64", *filter(None, env[2].split(os.pathsep))]
    patterns = [os.path.join(d, "libnvrtc*") for d in dirs]
    for pkg in ("cuda.bindings", "nvidia"):
        try:
            spec = importlib.util.find_spec(pkg)
        except (ImportError, ValueError):
            spec = None
        for base in (spec.submodule_search_locations or []) if spec is not None else []:
            patterns += [os.path.join(base, "nvrtc*"), os.path.join(base, "_internal", "nvrtc*"),
                         os.path.join(base, "*", "lib", "libnvrtc*")]
    parts = [repr(env)]
    for f in sorted({f for pat in patterns for f in glob.glob(pat)}):
        try:
            st = os.stat(f)
        except OSError:
            continue
        parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _ask_nvrtc_version() -> str:
    """NVRTC's version, asked in a child process (see nvrtc_compile) unless SAREK_NVRTC_INPROCESS=1."""
    code = "from cuda.bindings import nvrtc; r = nvrtc.nvrtcVersion(); print(f'{r[1]}.{r[2]}')"
    if os.environ.get("SAREK_NVRTC_INPROCESS") == "1":
        r = _nvrtc().nvrtcVersion()
        return f"{r[1]}.{r[2]}"
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else "unknown"


def nvrtc_compile(source: str, arch: str, name: str = "kernel.cu", output: str = "cubin",
                  extra: list[str] | None = None) -> bytes:
    """CUDA C -> cubin (or PTX) with NVRTC; cached by source + arch + NVRTC version. Errors carry the log.

    NVRTC runs in a child process unless SAREK_NVRTC_INPROCESS=1: once NVRTC has run in a process, NVIDIA's
    OpenCL compiler in that process refuses every build ('Don't understand command line argument "sm_90"'),
    so keeping NVRTC out lets cuda and NVIDIA OpenCL devices be used together. The result is cached, so the
    child runs once per kernel.
    """
    incs = cuda_include_dirs()
    opts = [f"--gpu-architecture={arch}", "-default-device", "--std=c++17"] + [f"-I{d}" for d in incs] + (extra or [])

    def build() -> bytes:
        if os.environ.get("SAREK_NVRTC_INPROCESS") == "1":
            return _nvrtc_build(source, name, opts, output)
        return _nvrtc_in_child(source, name, opts, output)

    key = cache.make_key("nvrtc", source, arch, output, nvrtc_version(), " ".join(opts))
    return cache.get_or_build(f"nvrtc-{output}", key, build)


_CHILD = r"""
import json, sys
from cuda.bindings import nvrtc
req = json.loads(sys.stdin.buffer.read())
err, prog = nvrtc.nvrtcCreateProgram(req["source"].encode(), req["name"].encode(), 0, [], [])
if int(err) != 0:
    sys.stderr.write(f"nvrtcCreateProgram failed: {err}"); sys.exit(4)
opts = [o.encode() for o in req["opts"]]
res = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0]
_, n = nvrtc.nvrtcGetProgramLogSize(prog)
log = b" " * n
nvrtc.nvrtcGetProgramLog(prog, log)
if int(res) != 0:
    sys.stderr.buffer.write(log.rstrip(b"\x00")); sys.exit(3)
if req["output"] == "ptx":
    _, n = nvrtc.nvrtcGetPTXSize(prog); out = b" " * n; nvrtc.nvrtcGetPTX(prog, out)
else:
    _, n = nvrtc.nvrtcGetCUBINSize(prog); out = b" " * n; nvrtc.nvrtcGetCUBIN(prog, out)
sys.stdout.buffer.write(out)
"""


def _nvrtc_in_child(source: str, name: str, opts: list[str], output: str) -> bytes:
    import json
    import subprocess
    import sys

    arch = next((o.split("=", 1)[1] for o in opts if o.startswith("--gpu-architecture=")), "?")
    req = json.dumps({"source": source, "name": name, "opts": opts, "output": output})
    p = subprocess.run([sys.executable, "-c", _CHILD], input=req.encode(), capture_output=True)
    if p.returncode == 3:
        raise DeviceError(f"NVRTC ({arch}) could not compile the CUDA source:\n"
                          f"{p.stderr.decode(errors='replace')}", backend="cuda")
    if p.returncode != 0:
        raise DeviceError(f"NVRTC child process failed (exit {p.returncode}):\n"
                          f"{p.stderr.decode(errors='replace')[-4000:]}", backend="cuda")
    return p.stdout


def _nvrtc_build(source: str, name: str, opts: list[str], output: str) -> bytes:
    nvrtc = _nvrtc()
    arch = next((o.split("=", 1)[1] for o in opts if o.startswith("--gpu-architecture=")), "?")
    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, [], [])
    if int(err) != 0:
        raise DeviceError(f"nvrtcCreateProgram failed: {err}", backend="cuda")
    try:
        res = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])[0]
        _, n = nvrtc.nvrtcGetProgramLogSize(prog)
        log = b" " * n
        nvrtc.nvrtcGetProgramLog(prog, log)
        if int(res) != 0:
            text = log.rstrip(b"\x00").decode(errors="replace")
            raise DeviceError(f"NVRTC ({arch}) could not compile the CUDA source:\n{text}", backend="cuda")
        if output == "ptx":
            _, n = nvrtc.nvrtcGetPTXSize(prog)
            out = b" " * n
            nvrtc.nvrtcGetPTX(prog, out)
        else:
            _, n = nvrtc.nvrtcGetCUBINSize(prog)
            out = b" " * n
            nvrtc.nvrtcGetCUBIN(prog, out)
        return out
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
