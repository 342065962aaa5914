"""sarek: a multi-backend GPU kernel compiler built on xDSL.

Public API (see /work/shared/FRONTEND.md): `kernel`, `device`, `record`, `variant`, `compile`, `Vec`, the
scalar types, `TypeVar` (dtype-generic kernels), `bitcast`, `CompileError`, `SarekError` (the base of every sarek diagnostic); `Vector`, `devices`,
`default_device`, `Device`, `get_device`, `launch`, `LaunchError`, `DeviceError`, `cdiv`, `synchronize`,
`Stream` come from `sarek.runtime`
(imported lazily). `import sarek` loads neither numpy nor xDSL's IR: declaring kernels, helpers, records and
variants needs neither; the front end's lowering, the dialects and the runtime load at the first compile or
launch (tests/unit/test_import_cost.py).
"""

from __future__ import annotations

from typing import Any

from sarek.diagnostics import SarekError
from sarek.frontend.api import DeviceFunction, Kernel, compile, device, kernel
from sarek.frontend.decls import record, variant
from sarek.frontend.errors import CompileError
from sarek.frontend.generics import TypeVar
from sarek.types import Array, Local, Shared, Vec, bf16, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from sarek.vectors import boolx2, boolx3, boolx4, f16x2, f32x2, f32x3, f32x4, i32x2, i32x4, u8x4, u32x4

_RUNTIME_NAMES = ("Vector", "devices", "default_device", "Device", "get_device", "launch", "LaunchError",
                  "DeviceError", "cdiv", "synchronize", "Stream")


def __getattr__(name: str) -> Any:
    if name in _RUNTIME_NAMES:
        try:
            import sarek.runtime as rt
        except ImportError as e:  # pragma: no cover - bring-up
            raise AttributeError(f"sarek.{name} needs sarek.runtime ({e})") from None
        if not hasattr(rt, name):
            raise AttributeError(f"sarek.{name} is not available yet (sarek.runtime has no '{name}')")
        return getattr(rt, name)
    if name in ("gpu", "math", "types", "opspec", "torch", "jax"):  # torch, jax: imported only when used
        import importlib

        return importlib.import_module(f"sarek.{name}")
    raise AttributeError(f"module 'sarek' has no attribute '{name}'")


from sarek import gpu as gpu  # noqa: E402
from sarek import math as math  # noqa: E402  (shadows nothing: `sarek.math`)
from sarek import coop as coop  # noqa: E402

pragma = gpu.pragma
superstep = gpu.superstep
bitcast = gpu.bitcast

__all__ = ["kernel", "device", "record", "variant", "compile", "Vec", "Array", "Shared", "Local", "f16", "f32", "f64",
           "i32", "i64", "u8", "i8", "i16", "u16", "u32", "u64", "bf16", "CompileError", "SarekError", "Kernel", "DeviceFunction", "gpu", "math", "coop", "pragma", "superstep",
           "bitcast", "TypeVar", "f32x2", "f32x3", "f32x4", "i32x2", "i32x4", "u32x4", "u8x4", "f16x2", "boolx2",
           "boolx3", "boolx4",
           *_RUNTIME_NAMES]  # pyright: ignore[reportUnsupportedDunderAll]
