"""The wire format of kernels: a `Kernel` pickles as its module's generic IR text (with locations), and a
worker rebuilds it from that text (one object per text, name and block in a process, so its compiled code is
kept across tasks); a generic kernel ships one text per instance and picks the instance the arguments match."""

from __future__ import annotations

from functools import lru_cache
from io import StringIO
from typing import TYPE_CHECKING, Any

from sarek.frontend.api import Kernel

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


def kernel_ir_text(k: Kernel) -> str:
    """The kernel's module as generic IR with locations (the custom syntax does not carry block-argument
    locations), so errors found on a worker point at the Python source line."""
    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=True).print_op(k.module)
    return out.getvalue()


@lru_cache(maxsize=64)
def generic_kernel_from_ir(texts: tuple[str, ...], name: str, block: tuple[int, int, int] | None = None) -> Kernel:
    """What a pickled generic kernel becomes: one instance per IR text; `launch` runs the one whose parameter
    types the arguments' dtypes match."""
    k = kernel_from_ir(texts[0], name, block)
    g = Kernel.__new__(Kernel)
    g.__dict__.update(k.__dict__)
    g._fast, g._instances = {}, {}  # pyright: ignore[reportPrivateUsage]
    g.__dict__["_ir_texts"] = texts  # (its .module is the first instance's)
    g.__dict__["_ir_instances"] = [kernel_from_ir(t, name, block) for t in texts]
    return g


def pick_instance(name: str, instances: list[Kernel], args: tuple[Any, ...]) -> Kernel:
    """The instance whose vector element types and scalar types the arrays and numpy scalars given match (a
    Python number matches any); exactly one must."""
    import numpy as np

    from sarek.analysis.layout import numpy_dtype
    from sarek.dialect import sarek as s
    from sarek.runtime.core import LaunchError

    def fits(k: Kernel) -> bool:
        op = next(o for o in k.module.ops if isinstance(o, s.KernelOp) and o.sym_name.data == name)
        params = op.body.block.args
        if len(params) != len(args):
            return False
        for p, a in zip(params, args):
            t = p.type.element_type if isinstance(p.type, s.VecType | s.ArrayType) else p.type
            dt = getattr(a, "dtype", None)
            if dt is not None and numpy_dtype(k.module, t) != np.dtype(dt):
                return False
        return True

    found = [k for k in instances if fits(k)]
    if len(found) != 1:
        raise LaunchError(f"kernel {name}: the arguments' dtypes pick {len(found)} of its {len(instances)} "
                          "instances; pass numpy arrays or scalars of the types it was written for")
    return found[0]


def kernel_from_module(module: ModuleOp, name: str, block: tuple[int, int, int] | None = None) -> Kernel:
    """A Kernel over an already built module (the adjoint of a kernel)."""

    def stub() -> None:
        pass

    stub.__name__ = stub.__qualname__ = name
    k = Kernel(stub, block)
    k.fn = None
    k._module = module  # pyright: ignore[reportPrivateUsage]
    return k


@lru_cache(maxsize=256)
def kernel_from_ir(text: str, name: str, block: tuple[int, int, int] | None = None) -> Kernel:
    """The kernel `name` of the module `text` with declared block `block` (what a pickled `Kernel` becomes):
    one object per text, name and block in a process, so its per-device compiled code is kept across the tasks
    that launch it."""
    from sarek.registry import parse_module

    def stub() -> None:  # Kernel() sets up every attribute it has; the module replaces the function
        pass

    stub.__name__ = stub.__qualname__ = name
    k = Kernel(stub, block)
    k.fn = None
    k._module = parse_module(text, f"<kernel {name}>")  # pyright: ignore[reportPrivateUsage]
    return k
