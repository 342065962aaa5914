"""CUDA devices: CUDA C compiled by NVRTC to a cubin, loaded and launched with the driver API, all through
NVIDIA's cuda-python (`cuda.bindings.driver`, `cuda.bindings.nvrtc`). `cuda:<n>` is device n.

Arguments follow the C-family convention: each vector is its device pointer followed by an `int` length;
scalars by value; records and variants as bytes of the aligned layout.

`CudaDevice` is meant to be subclassed: the PTX device overrides `_image(spec)` (PTX text instead of the
cubin from NVRTC) and keeps buffers, limits and launch.
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import Any, cast

import numpy as np

from sarek.analysis.namer import entry_name
from sarek.runtime import cache, streams
from sarek.runtime.cuda_driver import driver
from sarek.runtime.core import BufferDevice, DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Limits, Stream


_driver = driver  # the one import of cuda.bindings.driver (sarek.runtime.cuda_driver)


def _nvrtc() -> Any:
    """`cuda.bindings.nvrtc` (a Cython module without type stubs)."""
    return importlib.import_module("cuda.bindings.nvrtc")


def check(result: Any, what: str) -> Any:
    """Unpack a cuda-python result tuple, raising DeviceError with the driver's text on failure."""
    err: Any
    rest: tuple[Any, ...]
    if isinstance(result, tuple):
        items = cast("tuple[Any, ...]", result)
        err, rest = items[0], items[1:]
    else:
        err, rest = result, ()
    if int(err) != 0:
        msg = str(err)
        try:
            d = _driver()
            if isinstance(err, d.CUresult):
                e2, s = d.cuGetErrorString(err)
                if int(e2) == 0 and s:
                    msg = f"{err.name}: {s.decode()}"
        except Exception:
            pass
        raise DeviceError(f"{what} failed: {msg}", backend="cuda")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def device_count() -> int:
    """The number of CUDA devices, after initialising the driver (a RuntimeError says what is missing)."""
    try:
        d = _driver()
    except ImportError as e:
        raise RuntimeError(f"cuda-python (cuda.bindings) is not installed ({e})") from e
    try:
        err = d.cuInit(0)[0]
    except RuntimeError as e:  # no libcuda.so: no NVIDIA driver
        raise RuntimeError(f"no NVIDIA driver ({e})") from e
    if int(err) != 0:
        raise RuntimeError(f"cuInit failed: {err}")
    return check(d.cuDeviceGetCount(), "cuDeviceGetCount")


def cuda_devices() -> list[CudaDevice]:
    return [CudaDevice(i) for i in range(device_count())]


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


class CudaDevice(BufferDevice):
    kind = "cuda"
    target = "cuda"
    multi_stream = True  # sarek streams are non-blocking: they do not wait for the legacy stream, nor it for them
    takes_passes = True  # (and ptx:N)

    def __init__(self, index: int):
        d = _driver()
        self.index = index
        self.name = f"{self.kind}:{index}"
        self.dev = check(d.cuDeviceGet(index), "cuDeviceGet")
        self._ctx: Any = None
        A = d.CUdevice_attribute

        def attr(a: Any) -> int:
            return int(check(d.cuDeviceGetAttribute(a, self.dev), "cuDeviceGetAttribute"))

        self.cc = (attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                   attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))
        self._limits = Limits(
            max_threads_per_block=attr(A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
            max_block=(attr(A.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), attr(A.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                       attr(A.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)),
            max_grid=(attr(A.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), attr(A.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                      attr(A.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)),
        )
        self._warp_size = attr(A.CU_DEVICE_ATTRIBUTE_WARP_SIZE)
        self._ctx_int = 0
        self._event: Any = None
        raw = check(d.cuDeviceGetName(256, self.dev), "cuDeviceGetName")
        self.device_name = bytes(raw).split(b"\x00")[0].decode(errors="replace")

    @property
    def arch(self) -> str:
        return f"sm_{self.cc[0]}{self.cc[1]}"

    @property
    def description(self) -> str:
        return f"{self.device_name} ({self.arch}, CUDA C via NVRTC {nvrtc_version()})"

    @property
    def limits(self) -> Limits:
        return self._limits

    @property
    def memory_space(self) -> tuple[Any, ...]:
        return ("cuda", self.index)

    @property
    def buffer_key(self) -> Any:
        return ("cuda", self.index)  # cuda:N and ptx:N share device N's primary context and its memory

    def activate(self) -> None:
        """Make device N's primary context current (asked of the driver only when another is current)."""
        d = _driver()
        if self._ctx is None:
            self._ctx = check(d.cuDevicePrimaryCtxRetain(self.dev), "cuDevicePrimaryCtxRetain")
            self._ctx_int = int(self._ctx)
        _, cur = d.cuCtxGetCurrent()
        if cur is None or int(cur) != self._ctx_int:
            check(d.cuCtxSetCurrent(self._ctx), "cuCtxSetCurrent")

    # -- buffers

    def _alloc(self, nbytes: int) -> Any:
        self.activate()
        return check(_driver().cuMemAlloc(nbytes), "cuMemAlloc")

    def _upload(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        self.activate()
        check(_driver().cuMemcpyHtoD(buf, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")

    def _download(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        self.activate()
        check(_driver().cuMemcpyDtoH(host.ctypes.data, buf, host.nbytes), "cuMemcpyDtoH")

    def _free(self, buf: Any) -> None:
        from sarek.runtime.vector import Borrowed

        if isinstance(buf, Borrowed):  # foreign memory (Vector.from_dlpack): its owner frees it
            return
        try:
            self.activate()
            _driver().cuMemFree(buf)
        except Exception:
            pass

    def synchronize(self) -> None:
        if self._ctx is not None:
            self.activate()
            check(_driver().cuCtxSynchronize(), f"synchronizing {self.name} (a kernel launched before failed)")
            for h in streams.finished(self):
                _driver().cuStreamDestroy(_stream(h))

    def synchronize_stream(self, handle: Any) -> None:
        if self._ctx is not None:
            self.activate()
            check(_driver().cuStreamSynchronize(_stream(handle)),
                  f"synchronizing a stream of {self.name} (a kernel launched before failed)")

    # -- streams

    def stream(self) -> Stream:
        d = _driver()
        self.activate()
        h = check(d.cuStreamCreate(d.CUstream_flags.CU_STREAM_NON_BLOCKING.value), "cuStreamCreate")
        return Stream(self, int(h), owned=True)

    def destroy_stream(self, handle: Any) -> None:
        """Destroyed at the next synchronize: until then a Vector may name it as the stream to wait for, and
        a new stream could get the same handle."""
        dead = streams.clock(self).dead
        dead.append(handle)
        if len(dead) > 32:
            self.synchronize()

    def stream_token(self, handle: Any) -> int:
        return _legacy(int(handle or 0))

    def _order_after(self, producer: Any, consumer: Any) -> None:
        self._wait_for(producer, consumer)

    def resolve_stream(self, stream: Any, values: list[Any]) -> Any:
        """A CUstream handle (int; 0 is the legacy default stream) for `stream=`: a sarek stream, an object with
        `__cuda_stream__` (CuPy, cuda.core), a PyTorch stream (`.cuda_stream`), a CuPy stream (`.ptr`) or a raw
        handle. None: PyTorch's current stream when a torch tensor is an argument (as Triton does), else 0;
        CuPy's current stream for CuPy arrays; a CUDA-array-interface v3 producer stream other than ours is waited
        on with an event."""
        if stream is None:
            handle = 0
            for a in values:
                what = getattr(a, "what", None)
                if what == "a PyTorch CUDA tensor":
                    handle = _torch_stream(self.index)
                    break
                if what == "a CuPy array":  # likewise CuPy's current stream (`with cupy.cuda.Stream():`)
                    handle = _cupy_stream()
                    break
        else:
            handle = self._stream_handle(stream)
        for a in values:
            prod = getattr(a, "stream", None)
            if prod is not None and isinstance(prod, int) and _legacy(prod) != _legacy(handle):
                self._wait_for(prod, handle)
        return handle

    def _stream_handle(self, stream: Any) -> int:
        if isinstance(stream, Stream):
            if stream.device.buffer_key != self.buffer_key:
                raise LaunchError(f"stream= is a stream of {stream.device.name}, the launch is on {self.name}")
            return int(stream.handle or 0)
        if isinstance(stream, int) and not isinstance(stream, bool):
            return stream
        proto = getattr(stream, "__cuda_stream__", None)
        if proto is not None:
            got = proto()
            return int(got[1])
        for attr in ("cuda_stream", "ptr", "handle"):
            h = getattr(stream, attr, None)
            if isinstance(h, int) and not isinstance(h, bool):
                return h
        if type(stream).__name__ == "CUstream":
            return int(stream)
        raise LaunchError(f"stream= must be a sarek stream, an object with __cuda_stream__, a CuPy or PyTorch "
                          f"stream or a raw CUstream handle (int), got {type(stream).__name__}")

    def _wait_for(self, producer: int, consumer: int) -> None:
        d = _driver()
        self.activate()
        if self._event is None:
            self._event = check(d.cuEventCreate(d.CUevent_flags.CU_EVENT_DISABLE_TIMING.value), "cuEventCreate")
        check(d.cuEventRecord(self._event, _stream(producer)), "cuEventRecord")
        check(d.cuStreamWaitEvent(_stream(consumer), self._event, 0), "cuStreamWaitEvent")

    # -- compile

    def source(self, module: Any, kernel: str) -> str:
        from sarek.runtime.core import kernel_spec
        from sarek.runtime.opencl import generated_source

        return generated_source(kernel_spec(module, kernel), self.target or "cuda")

    def _image(self, spec: KernelSpec) -> bytes:
        """The module image to load: a cubin compiled by NVRTC from the generated CUDA C (at fp="exact" with
        --fmad=false, so no multiply-add is contracted)."""
        from sarek.runtime.opencl import generated_source

        extra = ["--fmad=false"] if self.fp == "exact" else []
        return nvrtc_compile(generated_source(spec, "cuda"), self.arch, f"{spec.name}.cu", extra=extra)

    def _function(self, spec: KernelSpec) -> Any:
        key = f"{self.kind}-function:{self.fp_key}"
        if key in spec.cache:
            return spec.cache[key]
        d = _driver()
        image = self._image(spec)
        self.activate()
        buf = np.frombuffer(image + (b"\x00" if not image.endswith(b"\x00") else b""), dtype=np.uint8)
        mod = check(d.cuModuleLoadData(buf.ctypes.data), f"loading the {self.kind} module of '{spec.name}'")
        err, fn = d.cuModuleGetFunction(mod, entry_name(spec.name, "cuda").encode())
        if int(err) != 0:
            raise DeviceError(f"kernel '{spec.name}' not found in the compiled module ({err}); the generated "
                              "source must declare it extern \"C\"", backend=self.kind)
        spec.cache[key] = (fn, mod, buf)
        return spec.cache[key]

    # -- launch

    @staticmethod
    def pack_args(spec: KernelSpec, bound: list[Any]) -> list[np.ndarray[Any, Any]]:
        """One host array per kernel parameter, in order: a vector is (pointer, i32 length), bool is a C `int`,
        f16 its 16 bits, a record its layout bytes (the PTX device shares this)."""
        storage: list[np.ndarray[Any, Any]] = []
        for p, a in zip(spec.params, bound):
            if p.kind == "vec":
                buf, *lens = a  # its length, or the extents of an N-dimensional one
                storage.append(np.array([int(buf)], dtype=np.uint64))
                storage += [np.array([n], dtype=np.int32) for n in lens]
            elif p.kind == "record":
                storage.append(np.ascontiguousarray(a).view(np.uint8).copy())
            elif p.dtype.kind == "b":
                storage.append(np.array([1 if a else 0], dtype=np.int32))
            elif p.dtype == np.float16:
                storage.append(np.array([a], dtype=np.float16).view(np.uint16))
            elif p.dtype.kind == "V":  # bf16 (ml_dtypes): `a` is already its bits
                storage.append(np.array([a], dtype=np.uint16))
            else:
                storage.append(np.array([a], dtype=p.dtype))
        return storage

    def _plan(self, spec: KernelSpec) -> _Plan:
        """The launch plan of (kernel, this device): the function, its block limit and the argument buffer,
        computed once; a launch only writes the values into the buffer."""
        plan = spec.plans.get((self.kind, self.fp_key))
        if plan is None:
            fn = self._function(spec)[0]
            d = _driver()
            A = d.CUfunction_attribute
            fmax = int(check(d.cuFuncGetAttribute(A.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
                             "cuFuncGetAttribute"))
            plan = _Plan(spec, fn, fmax)
            plan.shared = self._dynamic_shared(spec, fn)
            spec.plans[(self.kind, self.fp_key)] = plan
        return plan

    def _source_text(self, spec: KernelSpec) -> str:
        from sarek.runtime.opencl import generated_source

        return generated_source(spec, "cuda")

    def _dynamic_shared(self, spec: KernelSpec, fn: Any) -> int:
        """The dynamic shared memory the kernel's source says it takes (its shared arrays past the static limit,
        sarek.analysis.shared_window), with the function's maximum raised to it; 0 for static arrays."""
        from sarek.analysis.shared_window import marked_bytes

        nbytes = marked_bytes(self._source_text(spec), spec.name)
        if nbytes:
            d = _driver()
            err = d.cuFuncSetAttribute(fn, d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       nbytes)
            if int(err[0]) != 0:
                A = d.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
                most = check(d.cuDeviceGetAttribute(A, self.dev), "cuDeviceGetAttribute")
                raise LaunchError(f"kernel {spec.name}: its shared arrays take {nbytes} bytes; {self.name} allows "
                                  f"at most {int(most)} per block")
        return nbytes

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        plan = self._plan(spec)
        if block[0] * block[1] * block[2] > plan.fmax:
            return None
        d = _driver()
        launch, fn, pack, shared = d.cuLaunchKernel, plan.fn, plan.pack, plan.shared
        if spec.grid_sync:
            self._check_resident(spec, plan, grid, block)
            launch = _cooperative_launch
        g0, g1, g2 = grid
        b0, b1, b2 = block
        activate = self.activate

        def submit(bound: list[Any]) -> None:
            params = pack(bound)
            activate()
            err = launch(fn, g0, g1, g2, b0, b1, b2, shared, 0, params, 0)
            if int(err[0]) != 0:
                check(err, f"launching kernel '{spec.name}' on {self.name}")
            if _SYNC_EACH:
                self.synchronize_stream(0)

        return FastPath.make(self, spec, grid, block, submit)

    def _run(self, spec: KernelSpec, bound: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        plan = self._plan(spec)
        if block[0] * block[1] * block[2] > plan.fmax:
            raise LaunchError(f"kernel {spec.name}: block {block} has {block[0] * block[1] * block[2]} threads; "
                              f"this kernel allows at most {plan.fmax} per block on {self.name}")
        launch = _driver().cuLaunchKernel
        if spec.grid_sync:
            self._check_resident(spec, plan, grid, block)
            launch = _cooperative_launch
        params = plan.pack(bound)
        self.activate()
        err = launch(plan.fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], plan.shared, stream or 0,
                     params, 0)
        if int(err[0]) != 0:
            check(err, f"launching kernel '{spec.name}' on {self.name}")
        if _SYNC_EACH:  # SAREK_CUDA_SYNC=1: wait after each launch (errors at the launch that caused them)
            self.synchronize_stream(stream)


    def _check_resident(self, spec: KernelSpec, plan: _Plan, grid: Dim3, block: Dim3) -> None:
        """A kernel with a grid barrier is launched cooperatively: every block must be resident at once, at most
        cuOccupancyMaxActiveBlocksPerMultiprocessor x the multiprocessors (else a LaunchError naming the limit;
        the driver would refuse the launch with a bare CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)."""
        d = _driver()
        A = d.CUdevice_attribute
        threads = block[0] * block[1] * block[2]
        if threads not in plan.resident:
            self.activate()
            if not check(d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, self.dev),
                         "cuDeviceGetAttribute"):
                raise LaunchError(f"kernel {spec.name} has a grid_barrier(), which needs a cooperative launch, and "
                                  f"{self.name} ({self.device_name}) cannot make one")
            per_sm = int(check(d.cuOccupancyMaxActiveBlocksPerMultiprocessor(plan.fn, threads, plan.shared),
                               "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
            sms = int(check(d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, self.dev),
                            "cuDeviceGetAttribute"))
            plan.resident[threads] = (per_sm, sms)
        per_sm, sms = plan.resident[threads]
        blocks = grid[0] * grid[1] * grid[2]
        if blocks > per_sm * sms:
            raise LaunchError(f"kernel {spec.name} has a grid_barrier(), so all its blocks must be resident at once: "
                              f"{self.name} holds at most {per_sm * sms} blocks of {threads} threads ({per_sm} per "
                              f"multiprocessor x {sms} multiprocessors), the launch asks for {blocks}; launch at most "
                              f"{per_sm * sms} blocks and loop over the data (a grid-stride loop)")


def _cooperative_launch(fn: Any, g0: int, g1: int, g2: int, b0: int, b1: int, b2: int, shared: int, stream: Any,
                        params: Any, extra: Any) -> Any:
    """cuLaunchCooperativeKernel with cuLaunchKernel's arguments (it takes no `extra`)."""
    return _driver().cuLaunchCooperativeKernel(fn, g0, g1, g2, b0, b1, b2, shared, stream, params)


_SYNC_EACH = os.environ.get("SAREK_CUDA_SYNC") == "1"


def _stream(handle: Any) -> Any:
    return _driver().CUstream(int(handle or 0))


def _legacy(h: int) -> int:
    """CAI v3 names the legacy default stream 1; the driver API names it 0."""
    return 0 if h in (0, 1) else h


def _torch_stream(index: int) -> int:
    """PyTorch's current stream on device `index` (its raw handle; the same call Triton makes)."""
    torch: Any = importlib.import_module("torch")
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return int(raw(index))
    return int(torch.cuda.current_stream(index).cuda_stream)


def _cupy_stream() -> int:
    cupy: Any = importlib.import_module("cupy")
    return int(cupy.cuda.get_current_stream().ptr)


class _Plan:
    """How one kernel's arguments are packed for `cuLaunchKernel` (CUDA and PTX share the C convention):
    one reused byte buffer holding every value at its aligned offset and the array of pointers into it."""

    def __init__(self, spec: KernelSpec, fn: Any, fmax: int):
        import struct

        self.fn, self.fmax = fn, fmax
        self.shared = 0  # bytes of dynamic shared memory per launch (sarek.analysis.shared_window)
        self.resident: dict[int, tuple[int, int]] = {}  # threads per block -> (blocks per SM, SMs): grid barriers
        fmt = "<"  # struct format (with padding)
        offsets: list[int] = []  # each value's offset
        conv: list[str] = []  # per parameter: how its bound value is packed
        size = 0

        def field(code: str, nbytes: int, align: int) -> None:
            nonlocal fmt, size
            pad = (-size) % align
            fmt += "x" * pad + code
            size += pad
            offsets.append(size)
            size += nbytes

        for p in spec.params:
            if p.kind == "vec":
                field("Q", 8, 8)
                for _ in range(p.rank):  # its length, or the extents of an N-dimensional one
                    field("i", 4, 4)
                conv.append("vec")
            elif p.kind == "record":
                n = p.dtype.itemsize
                field(f"{n}s", n, max(1, min(16, p.dtype.alignment)))
                conv.append("record")
            elif p.dtype.kind == "b":
                field("i", 4, 4)
                conv.append("bool")
            elif p.dtype.kind == "V" and p.dtype.itemsize == 2:  # bf16 (ml_dtypes.bfloat16): its 16 bits
                field("H", 2, 2)
                conv.append("bits16")
            else:
                code = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q", "u8": "Q",
                        "f2": "e", "f4": "f", "f8": "d"}[f"{p.dtype.kind}{p.dtype.itemsize}"]
                field(code, p.dtype.itemsize, p.dtype.itemsize)
                conv.append("scalar")
        self.struct = struct.Struct(fmt)
        self.buf = np.zeros(max(size, 8), np.uint8)
        self.view = self.buf.data
        base = self.buf.ctypes.data
        self.ptrs = np.array([base + o for o in offsets], dtype=np.uint64)
        self.params = self.ptrs.ctypes.data
        self.conv = conv

    def pack(self, bound: list[Any]) -> int:
        vals: list[Any] = []
        for c, a in zip(self.conv, bound):
            if c == "vec":
                vals.append(int(a[0]))
                vals += a[1:]
            elif c == "record":
                vals.append(np.ascontiguousarray(a).tobytes())
            elif c == "bool":
                vals.append(1 if a else 0)
            elif c == "bits16":
                vals.append(int(np.asarray(a).reshape(()).view(np.uint16)))
            else:
                vals.append(a)
        self.struct.pack_into(self.view, 0, *vals)
        return self.params
