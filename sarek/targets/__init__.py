"""Registry of sarek targets (`-t NAME`): name -> lazy factory of an xDSL Target class."""

import importlib
import importlib.util
from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

# target name -> (module, class); the module is imported only when the target is used
TARGETS: dict[str, tuple[str, str]] = {
    "cuda": ("sarek.targets.cfamily", "CudaTarget"),
    "hip": ("sarek.targets.cfamily", "HipTarget"),
    "opencl": ("sarek.targets.cfamily", "OpenCLTarget"),
    "metal": ("sarek.targets.cfamily", "MetalTarget"),
    "glsl": ("sarek.targets.glsl", "GlslTarget"),
    "wgsl": ("sarek.targets.wgsl", "WgslTarget"),
    "ptx": ("sarek.targets.ptx", "PtxTarget"),
}


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    def factory(mod: str, cls: str) -> Callable[[], type[Target]]:
        return lambda: getattr(importlib.import_module(mod), cls)

    return {n: factory(m, c) for n, (m, c) in TARGETS.items() if importlib.util.find_spec(m) is not None}


# target dialects (name -> (module, Dialect object name)), loaded lazily by the parser
TARGET_DIALECTS: dict[str, tuple[str, str]] = {
    "sarek_c": ("sarek.targets.cfamily.dialect", "SarekC"),
    "sarek_glsl": ("sarek.targets.glsl.dialect", "SarekGlsl"),
    "sarek_wgsl": ("sarek.targets.wgsl.dialect", "SarekWgsl"),
    "sarek_ptx": ("sarek.targets.ptx.dialect", "SarekPtx"),
}


def emit_source(module: ModuleOp, target: str, **options: object) -> str:
    """Source text for `target` from a sarek-dialect module (the module is cloned, not changed).

    The Target itself runs `sarek-pipeline{target=...}` when it is given sarek-dialect IR.
    """
    from io import StringIO

    from sarek.tools.ir import make_context

    factories = get_all_targets()
    if target not in factories:
        from sarek.diagnostics import SarekError

        raise SarekError(f"unknown target '{target}' (known: {', '.join(sorted(factories))})")
    out = StringIO()
    factories[target]()(**options).emit(make_context(), module.clone(), out)
    return out.getvalue()
