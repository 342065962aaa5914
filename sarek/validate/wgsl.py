"""`check(source)`: WGSL through wgpu's `create_shader_module` (naga) on a Vulkan adapter (lavapipe on CPU
machines), with the features the shader may need requested when the adapter has them.

A missing wgpu or adapter raises `ValidationError` (tests then fail, they do not skip).
"""

from __future__ import annotations

import importlib
import os
import tempfile
from typing import Any

from sarek.validate import ValidationError, numbered

WANTED_FEATURES = ("shader-f16", "subgroup", "subgroup-barrier", "shader-f64", "shader-int64", "immediates",
                   "shader-float32-atomic")

_device: Any = None


def wgpu_device() -> Any:
    """A shared wgpu device on the first Vulkan adapter (features requested where available)."""
    global _device
    if _device is not None:
        return _device
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))
    try:
        wgpu: Any = importlib.import_module("wgpu")  # partly typed, without stubs
    except ImportError as e:  # pragma: no cover - environment
        raise ValidationError(f"wgpu is not installed (needed for WGSL): pip install wgpu==0.32.0 ({e})") from e
    adapter = None
    for a in wgpu.gpu.enumerate_adapters_sync():
        if a.info.get("backend_type") == "Vulkan":
            adapter = a
            break
    if adapter is None:
        raise ValidationError("no Vulkan adapter for wgpu (install mesa-vulkan-drivers for lavapipe)")
    feats = [f for f in WANTED_FEATURES if f in adapter.features]
    limits = {"max-immediate-size": adapter.limits.get("max-immediate-size", 0)} if "immediates" in feats else {}
    _device = adapter.request_device_sync(required_features=feats, required_limits=limits)
    return _device


def check(source: str) -> None:
    """Raise ValidationError unless wgpu/naga accepts `source`."""
    dev = wgpu_device()
    try:
        dev.create_shader_module(code=source, label="sarek-wgsl-check")
    except Exception as e:
        raise ValidationError(f"wgpu create_shader_module failed:\n{e}\n--- source ---\n{numbered(source)}") from e
