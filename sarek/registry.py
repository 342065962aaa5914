"""What sarek is made of, in one module: targets, dialects, passes, the context, parse and print.

- `TARGETS`: one descriptor per target (`-t NAME`, `sarek-pipeline{target=NAME}`; sarek.descriptor,
  also called `TargetInfo`): its display name (the backend tag of diagnostics), its family, its Target class,
  its capabilities, gaps, limits, native math, reserved words, payload layout, validator and file extension.
  Every other list of targets and every per-target table is derived from it.
- `DIALECTS`, `PASSES`: name -> (module, attribute), imported only when used. A pass or dialect whose module
  does not exist is an error when it is asked for (tests/unit/test_registry.py imports every one).
- `make_context`, `parse_module`, `print_module`, `emit_source`: what library code, tools and tests use to
  read and write IR and to get a target's source.

Nothing here imports a pass, a dialect or a target driver at module level, so any module may import the registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from io import StringIO
from typing import TYPE_CHECKING, Any, cast

from sarek.diagnostics import SarekError
from sarek.descriptor import DESCRIPTORS
from sarek.descriptor import Family as Family
from sarek.descriptor import TargetDescriptor as TargetInfo

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass
    from xdsl.utils.target import Target

#: one descriptor per target (sarek.descriptor): the registry's table of targets
TARGETS: dict[str, TargetInfo] = DESCRIPTORS
TARGET_NAMES: tuple[str, ...] = tuple(TARGETS)
C_TARGETS: tuple[str, ...] = tuple(n for n, t in TARGETS.items() if t.family == "c")
SHADER_TARGETS: tuple[str, ...] = tuple(n for n, t in TARGETS.items() if t.family == "shader")


def target_info(name: str, who: str = "") -> TargetInfo:
    """The target called `name`; an unknown name is a SarekError listing the known ones (`who: ` first)."""
    info = TARGETS.get(name)
    if info is None:
        raise SarekError(f"{who + ': ' if who else ''}unknown target '{name}' (known: {', '.join(sorted(TARGETS))})")
    return info


def display_name(target: str) -> str:
    """The backend tag diagnostics carry for `target` ("CUDA", "GLSL", ...)."""
    return target_info(target).display


# dialect name -> (module, Dialect object name)
DIALECTS: dict[str, tuple[str, str]] = {
    "sarek": ("sarek.dialect", "Sarek"),
    "sarek_c": ("sarek.targets.cfamily.dialect", "SarekC"),
    "sarek_glsl": ("sarek.targets.glsl.dialect", "SarekGlsl"),
    "sarek_wgsl": ("sarek.targets.wgsl.dialect", "SarekWgsl"),
    "sarek_ptx": ("sarek.targets.ptx.dialect", "SarekPtx"),
}

# pass name -> (module, class); one module per pass (lowerings live under sarek.lowering)
PASSES: dict[str, tuple[str, str]] = {
    "sarek-reject-features": ("sarek.passes.reject_features", "RejectFeaturesPass"),
    "sarek-pack-narrow": ("sarek.passes.pack_narrow", "PackNarrowPass"),
    "sarek-widen-f16": ("sarek.passes.widen_f16", "WidenF16Pass"),
    "sarek-order-type-decls": ("sarek.passes.order_type_decls", "OrderTypeDeclsPass"),
    "sarek-subst-match-payloads": ("sarek.passes.subst_match_payloads", "SubstMatchPayloadsPass"),
    "sarek-legalize-names": ("sarek.passes.legalize_names", "LegalizeNamesPass"),
    "sarek-rename-shadowing-locals": ("sarek.passes.rename_shadowing_locals", "RenameShadowingLocalsPass"),
    "sarek-lower-warp": ("sarek.passes.lower_warp", "LowerWarpPass"),
    "sarek-verify-barriers": ("sarek.passes.verify_barriers", "VerifyBarriersPass"),
    "sarek-expand-math": ("sarek.passes.expand_math", "ExpandMathPass"),
    "sarek-fold-grid": ("sarek.passes.fold_grid", "FoldGridPass"),
    "sarek-canonicalize": ("sarek.passes.canonicalize", "CanonicalizePass"),
    "sarek-cse": ("sarek.passes.cse", "CsePass"),
    "sarek-licm": ("sarek.passes.licm", "LicmPass"),
    "sarek-unroll": ("sarek.passes.unroll", "UnrollPass"),
    "sarek-strength-reduce": ("sarek.passes.strength_reduce", "StrengthReducePass"),
    "sarek-strip-asserts": ("sarek.passes.strip_asserts", "StripAssertsPass"),
    "sarek-expand-copy-async": ("sarek.passes.expand_copy_async", "ExpandCopyAsyncPass"),
    "sarek-expand-block-votes": ("sarek.passes.expand_block_votes", "ExpandBlockVotesPass"),
    "sarek-adjoint": ("sarek.passes.adjoint", "AdjointPass"),
    "sarek-wide-vector-access": ("sarek.passes.wide_vector_access", "WideVectorAccessPass"),
    "sarek-zero-shared": ("sarek.passes.zero_shared", "ZeroSharedPass"),
    "sarek-constant-tables": ("sarek.passes.constant_tables", "ConstantTablesPass"),
    "sarek-hoist-match-breaks": ("sarek.passes.hoist_match_breaks", "HoistMatchBreaksPass"),
    "sarek-pin-widened-constants": ("sarek.passes.pin_widened_constants", "PinWidenedConstantsPass"),
    "sarek-check-bounds": ("sarek.passes.check_bounds", "CheckBoundsPass"),
    "sarek-lower-print": ("sarek.passes.lower_print", "LowerPrintPass"),
    "sarek-pipeline": ("sarek.passes.pipeline", "PipelinePass"),
    "sarek-contract": ("sarek.passes.contract", "ContractPass"),
    "sarek-lower-glsl": ("sarek.lowering.shaders", "LowerGlslPass"),
    "sarek-lower-wgsl": ("sarek.lowering.shaders", "LowerWgslPass"),
    "sarek-lower-cfamily": ("sarek.lowering.cfamily", "LowerCFamilyPass"),
    "sarek-c-form-expressions": ("sarek.passes.c_form_expressions", "CFormExpressionsPass"),
    "sarek-lower-ptx": ("sarek.lowering.ptx", "LowerPtxPass"),
    "sarek-wgmma-waits": ("sarek.passes.wgmma_waits", "WgmmaWaitsPass"),
}


def _lazy(mod: str, attr: str) -> Callable[[], object]:
    return lambda: getattr(importlib.import_module(mod), attr)


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> lazy loader (the parser imports a dialect's module when it first meets its ops)."""
    return {n: _lazy(m, a) for n, (m, a) in DIALECTS.items()}  # pyright: ignore[reportReturnType]


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> lazy class loader."""
    return {n: _lazy(m, c) for n, (m, c) in PASSES.items()}  # pyright: ignore[reportReturnType]


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Target name -> lazy Target class loader."""
    return {n: _lazy(*t.target_class) for n, t in TARGETS.items()}  # pyright: ignore[reportReturnType]


def pass_class(name: str) -> type[ModulePass]:
    """The class of the registered pass `name` (its module is imported now; a missing module is an error)."""
    mod, cls = PASSES[name]
    return getattr(importlib.import_module(mod), cls)


def make_pass(name: str, **options: object) -> ModulePass:
    """An instance of the registered pass `name` with `options` (field names, as in Python)."""
    return cast("Callable[..., ModulePass]", pass_class(name))(**options)


def register_dialects(ctx: Context) -> Context:
    """Register builtin, sarek and the target dialects (lazily) in `ctx`; returns it."""
    from xdsl.dialects.builtin import Builtin

    ctx.register_dialect("builtin", lambda: Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def make_context() -> Context:
    """A context knowing builtin, sarek and the target dialects, all registered lazily."""
    from xdsl.context import Context

    return register_dialects(Context())


def parse_module(text: str, name: str = "<text>", ctx: Context | None = None) -> ModuleOp:
    """The module in `text` (sarek and target dialects known)."""
    from xdsl.parser import Parser

    return Parser(ctx or make_context(), text, name).parse_module()


def print_module(m: ModuleOp, generic: bool = False) -> str:
    """`m` as MLIR text (custom syntax unless `generic`)."""
    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(m)
    return out.getvalue()


def check_target_options(target: str, cls: type[Any], options: Mapping[str, object]) -> None:
    """A SarekError for an option `target` does not take or a value of the wrong kind (`k.source("cuda",
    block=...)`, `opt=1`), instead of the dataclass's TypeError; `block` may be an int or a tuple of ints."""
    import dataclasses

    known = {f.name: str(f.type) for f in dataclasses.fields(cls)}
    for name, value in options.items():
        kind = known.get(name)
        if kind is None:
            hint = (f"; the block is chosen at launch on {target} (only glsl and wgsl compile it into the source)"
                    if name == "block" else "")
            raise SarekError(f"target '{target}' has no option '{name}' (its options: "
                             f"{', '.join(sorted(known)) or 'none'}){hint}")
        if name == "block":
            ok = (type(value) is int or isinstance(value, str) or
                  isinstance(value, tuple) and all(type(x) is int for x in cast(tuple[object, ...], value)))
            want = "an int, a tuple of 1-3 ints or 'X,Y,Z'"
        elif "bool" in kind:
            ok, want = isinstance(value, bool) or value is None, "True or False"
        else:
            ok, want = isinstance(value, str), "a string"
        if not ok:
            raise SarekError(f"target '{target}': option {name}={value!r} is not valid (expected {want})")


def emit_source(module: ModuleOp, target: str, **options: object) -> str:
    """Source text for `target` from a sarek-dialect module (the module is cloned, not changed).

    The Target runs `sarek-pipeline{target=...}` itself when it is given sarek-dialect IR.
    """
    info = target_info(target)
    cls: type[Target] = getattr(importlib.import_module(info.target_class[0]), info.target_class[1])
    check_target_options(target, cls, options)
    out = StringIO()
    cls(**options).emit(make_context(), module.clone(), out)
    return out.getvalue()
