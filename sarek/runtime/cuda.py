"""CUDA devices: CUDA C compiled by NVRTC to a cubin, loaded and launched with the driver API, all through
NVIDIA's cuda-python (`cuda.bindings.driver`, `cuda.bindings.nvrtc`). `cuda:<n>` is device n.

Arguments follow the C-family convention: each vector is its device pointer followed by an `int` length;
scalars by value; records and variants as bytes of the aligned layout.

`CudaDevice` is meant to be subclassed: the PTX device overrides `_image(spec)` (PTX text instead of the
cubin from NVRTC) and keeps buffers, limits and launch. The compiler lives in `sarek.runtime.nvrtc` and the
argument packing in `sarek.runtime.cuda_plan` (both re-exported here where callers expect them).
"""

from __future__ import annotations

import os
from typing import Any, cast

import numpy as np

from sarek.analysis.namer import entry_name
from sarek.runtime import streams
from sarek.runtime.core import BufferDevice, DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Limits, Stream
from sarek.runtime.cuda_driver import driver
from sarek.runtime.cuda_plan import Plan, pack_args
from sarek.runtime.nvrtc import cuda_include_dirs, nvrtc_compile, nvrtc_fingerprint, nvrtc_version

__all__ = ["CudaDevice", "check", "cuda_devices", "cuda_include_dirs", "device_count", "nvrtc_compile",
           "nvrtc_fingerprint", "nvrtc_version"]


_driver = driver  # the one import of cuda.bindings.driver (sarek.runtime.cuda_driver)


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


class CudaDevice(BufferDevice):
    kind = "cuda"
    target = "cuda"
    grid_counter = False  # PTX: a grid barrier's kernel takes its counter's address as a last parameter
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
        return streams.legacy(int(handle or 0))

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
                    handle = streams.torch_stream(self.index)
                    break
                if what == "a CuPy array":  # likewise CuPy's current stream (`with cupy.cuda.Stream():`)
                    handle = streams.cupy_stream()
                    break
        else:
            handle = self._stream_handle(stream)
        for a in values:
            prod = getattr(a, "stream", None)
            if prod is not None and isinstance(prod, int) and streams.legacy(prod) != streams.legacy(handle):
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
        from sarek.runtime.compile import compile_source
        from sarek.runtime.core import kernel_spec

        return compile_source(kernel_spec(module, kernel), self.target or "cuda")

    def _image(self, spec: KernelSpec) -> bytes:
        """The module image to load: a cubin compiled by NVRTC from the generated CUDA C (at fp="exact" with
        --fmad=false, so no multiply-add is contracted)."""
        from sarek.runtime.compile import compile_source

        extra = ["--fmad=false"] if self.fp == "exact" else []
        return nvrtc_compile(compile_source(spec, "cuda"), self.arch, f"{spec.name}.cu", extra=extra)

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

    pack_args = staticmethod(pack_args)  # the PTX device shares it (sarek.runtime.cuda_plan)

    def _plan(self, spec: KernelSpec) -> Plan:
        """The launch plan of (kernel, this device): the function, its block limit and the argument buffer,
        computed once; a launch only writes the values into the buffer."""
        plan = spec.plans.get((self.kind, self.fp_key))
        if plan is None:
            fn = self._function(spec)[0]
            d = _driver()
            A = d.CUfunction_attribute
            fmax = int(check(d.cuFuncGetAttribute(A.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
                             "cuFuncGetAttribute"))
            plan = Plan(spec, fn, fmax, counter=spec.grid_sync and self.grid_counter)
            plan.shared = self._dynamic_shared(spec, fn)
            spec.plans[(self.kind, self.fp_key)] = plan
        return plan

    def _source_text(self, spec: KernelSpec) -> str:
        from sarek.runtime.compile import compile_source

        return compile_source(spec, "cuda")

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
        if block[0] * block[1] * block[2] > plan.fmax or plan.counter_at is not None:
            return None  # (a PTX grid barrier's counter is zeroed and written per launch: the full path does it)
        d = _driver()
        launch, fn, pack, shared = d.cuLaunchKernel, plan.fn, plan.pack, plan.shared
        if spec.grid_sync:
            self._check_resident(spec, plan, grid, block)
            launch = self._cooperative(plan)
        g0, g1, g2 = grid
        b0, b1, b2 = block
        self.activate()  # (the context is made: _ctx_int is set)
        activate, current, ctx = self.activate, d.cuCtxGetCurrent, self._ctx_int
        stream0 = d.CUstream(0)  # made once: cuLaunchKernel given the int 0 builds one per call (0.46 us, H200)

        def submit(bound: list[Any], stream: Any = stream0, handle: int = 0) -> None:
            params = pack(bound)
            cur = current()[1]  # activate()'s question, asked here: one call less per launch
            if cur is None or int(cur) != ctx:
                activate()
            err = launch(fn, g0, g1, g2, b0, b1, b2, shared, stream, params, 0)
            if int(err[0]) != 0:
                check(err, f"launching kernel '{spec.name}' on {self.name}")
            if _SYNC_EACH:
                self.synchronize_stream(handle)

        fast = FastPath.make(self, spec, grid, block, submit)
        if fast is not None:
            fast.foreign = self._foreign_launch(spec, fast, submit)
        return fast

    def _foreign_launch(self, spec: KernelSpec, fast: FastPath, submit: Any) -> Any:
        """The fast path's launcher for foreign device arrays (sarek.runtime.cuda_foreign): `submit` on the
        stream the full path picks, its CUstream made once per handle."""
        from sarek.runtime.cuda_foreign import ForeignLaunch

        made: dict[int, Any] = {0: _driver().CUstream(0)}
        stream_of = _driver().CUstream

        def on(bound: list[Any], handle: int) -> None:
            s = made.get(handle)
            if s is None:
                s = made[handle] = stream_of(handle)
            submit(bound, s, handle)

        return ForeignLaunch(spec, fast.kinds, self.index, fast.threads, on, self._wait_for)

    def _run(self, spec: KernelSpec, bound: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        plan = self._plan(spec)
        if block[0] * block[1] * block[2] > plan.fmax:
            raise LaunchError(f"kernel {spec.name}: block {block} has {block[0] * block[1] * block[2]} threads; "
                              f"this kernel allows at most {plan.fmax} per block on {self.name}")
        launch = _driver().cuLaunchKernel
        if spec.grid_sync:
            self._check_resident(spec, plan, grid, block)
            launch = self._cooperative(plan)
        params = plan.pack(bound)
        self.activate()
        err = launch(plan.fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], plan.shared, stream or 0,
                     params, 0)
        if int(err[0]) != 0:
            check(err, f"launching kernel '{spec.name}' on {self.name}")
        if _SYNC_EACH:  # SAREK_CUDA_SYNC=1: wait after each launch (errors at the launch that caused them)
            self.synchronize_stream(stream)

    def _cooperative(self, plan: Plan) -> Any:
        """How a kernel with a grid barrier is launched: cuLaunchCooperativeKernel (the PTX device also zeroes
        the barrier's counter first)."""
        return _cooperative_launch

    def _check_resident(self, spec: KernelSpec, plan: Plan, grid: Dim3, block: Dim3) -> None:
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
