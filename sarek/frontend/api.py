"""`@kernel`, `@device`, `compile`: compiled-on-first-use kernel objects over the sarek dialect.

A kernel's module holds the record/variant declarations it needs, the helpers it calls (callees first) and
the kernel itself, every op located in the Python source.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from sarek.diagnostics import SarekError, user_api
from sarek.frontend.decls import normalize_type, type_name
from sarek.frontend.errors import CompileError, user_frame
from sarek.frontend.generics import Inference, TypeVar, launch_type, suffix, type_vars
from sarek.unset import UNSET

if TYPE_CHECKING:  # the lowering and xDSL load at the first compile: `@kernel` and a warm launch need neither
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Operation

    from sarek.frontend.lower import FunctionLowerer, Signature


class _Compiled:
    def __init__(self, op: Operation, deps: list[tuple[DeviceFunction, CompileError]], types: list[Any]):
        self.op, self.deps, self.types = op, deps, types


def _lower(fn: Any, kind: str, name: str, binding: dict[TypeVar, Any] | None = None,
           views: dict[str, Any] | None = None) -> _Compiled:
    from sarek.frontend.lower import FunctionLowerer
    from sarek.frontend.lower_base import WidenLiteral

    deps: list[tuple[DeviceFunction, CompileError]] = []

    def resolve_device(obj: Any, node: Any, lowerer: FunctionLowerer) -> Signature | None:
        if isinstance(obj, Kernel):
            raise lowerer.err(node, f"'{obj.name}' is a kernel; kernels cannot be called (use a @sarek.device "
                                    "function)")
        if not isinstance(obj, DeviceFunction):
            return None
        deps.append((obj, lowerer.err(node, "")))
        return obj.signature()

    widened: set[str] = set()
    while True:  # a float literal first bound to a name the body then combines with f64: lowered again, f64
        deps.clear()
        lw = FunctionLowerer(fn, kind, resolve_device, name, binding)
        lw.views = dict(views or {})
        lw.f64_literals = widened
        try:
            op = lw.lower()
        except WidenLiteral as w:
            widened = widened | {w.name}
            continue
        return _Compiled(op, deps, lw.types)


def _check_function(fn: Any, what: str) -> None:
    """`@sarek.kernel` / `@sarek.device` apply to a `def` (a class, a builtin or a value is a user error, not an
    AttributeError from deep inside). Located at the class's definition, else at the user's decorator line."""
    import inspect

    if inspect.isfunction(fn):
        return
    shown = f"the class {fn.__name__}" if isinstance(fn, type) else f"{type(fn).__name__} {fn!r}"[:80]
    file, line = None, None
    if isinstance(fn, type):
        try:
            file, line = inspect.getsourcefile(fn), inspect.getsourcelines(fn)[1]
        except (OSError, TypeError):
            pass
    if file is None:
        file, line = user_frame()
    raise CompileError(f"{what} applies to a Python function (def), got {shown}", file, line, 1 if line else None)


class _Generic:
    """What generic kernels and helpers share: the type variables of the annotations (found at first use, as
    annotations may name types defined after the function) and one instance per binding."""

    fn: Any
    name: str
    binding: dict[TypeVar, Any]

    def annotations(self) -> list[tuple[Any, Any]]:
        """(ast.arg, annotation object) per parameter."""
        from sarek.frontend.lower import FunctionLowerer

        return FunctionLowerer(self.fn, "helper", None, self.name).annotations()[0]

    @property
    def type_params(self) -> list[TypeVar]:
        """The type variables, in order of first appearance ([] for a plain function or an instance)."""
        tp: list[TypeVar] | None = self.__dict__.get("_type_params")
        if tp is None:
            if self.fn is None or self.binding:
                tp = []
            else:
                from sarek.frontend.lower import FunctionLowerer

                params, ret = FunctionLowerer(self.fn, "helper", None, self.name).annotations()
                tp = type_vars([a for _, a in params] + [ret])
            self.__dict__["_type_params"] = tp
        return tp

    def _instance_key(self, binding: dict[TypeVar, Any]) -> tuple[int, ...]:
        return tuple(id(binding[v]) for v in self.type_params)


class DeviceFunction(_Generic):
    """A `@sarek.device` helper: compiled (once) into a `sarek.helper` when a kernel calls it; a generic one
    (sarek.TypeVar annotations) once per binding of its type variables (`instance`)."""

    def __init__(self, fn: Any, source: str | None = None, name: str | None = None,
                 binding: dict[TypeVar, Any] | None = None):
        _check_function(fn, "@sarek.device")
        _given_source(fn, source)
        self.fn = fn
        self.binding = dict(binding or {})
        self._sig: Signature | None = None
        self._compiled: _Compiled | None = None
        self._instances: dict[tuple[int, ...], DeviceFunction] = {}
        self.views: dict[str, Any] = {}  # parameter -> the shape of the array view it takes (view_instance)
        self._view_instances: dict[tuple[tuple[str, Any], ...], DeviceFunction] = {}
        functools.update_wrapper(self, fn)
        self.name = name or fn.__name__

    def instance(self, binding: dict[TypeVar, Any]) -> DeviceFunction:
        """The helper with its type variables bound (named `<name>_<types>`, e.g. `axpy_f64`)."""
        key = self._instance_key(binding)
        inst = self._instances.get(key)
        if inst is None:
            inst = self._instances[key] = DeviceFunction(
                self.fn, name=f"{self.name}_{suffix(binding, self.type_params)}", binding=binding)
        return inst

    def view_instance(self, views: dict[str, Any]) -> DeviceFunction:
        """The helper taking array views at the parameters `views` names (their shapes,
        `sarek.frontend.lower_view.view_shape`): each such parameter is the view's arrays, offsets, lengths and
        conditions (`<name>_view_<shape codes>`, e.g. `total_view_0o` for an offset view as parameter 0)."""
        key = tuple(sorted(views.items()))
        inst = self._view_instances.get(key)
        if inst is None:
            from sarek.frontend.lower_view import shape_code

            order = [p.arg for p, _ in self.annotations()]
            codes = "_".join(f"{order.index(n)}{shape_code(sh)}" for n, sh in sorted(views.items(),
                                                                                     key=lambda x: order.index(x[0])))
            inst = self._view_instances[key] = DeviceFunction(self.fn, name=f"{self.name}_view_{codes}",
                                                              binding=self.binding)
            inst.views = dict(views)
        return inst

    def signature(self) -> Signature:
        if self._sig is None:
            from sarek.frontend.lower import FunctionLowerer

            lw = FunctionLowerer(self.fn, "helper", None, self.name, self.binding)
            lw.views = dict(self.views)
            self._sig = lw.lower_signature()
        return self._sig

    def compiled(self) -> _Compiled:
        if self._compiled is None:
            self._compiled = _lower(self.fn, "helper", self.name, self.binding, self.views)
        return self._compiled

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"@sarek.device function '{self.name}' is called from kernels, not from Python")

    def __repr__(self) -> str:
        return f"<sarek device function {self.name}>"


def _dim3(x: Any, what: str) -> tuple[int, int, int]:  # pyright: ignore[reportUnusedFunction]
    """An int or 1-3 tuple as a 3-tuple (the runtime's `dim3`, with its LaunchError, for callers outside it)."""
    from sarek.runtime.core import dim3

    return dim3(x, what)


class Kernel(_Generic):
    """A `@sarek.kernel`: `.launch(*args, grid=|threads=, block=, device=, stream=)`, `.source(target)`, `.ir()`,
    `.module`; `declared_block` is `@kernel(block=...)`'s block (None when not declared). A generic kernel
    (sarek.TypeVar annotations) is compiled per binding of its type variables: `k[f64]` is that instance,
    `k.launch(...)` picks it from the arguments' dtypes."""

    def __init__(self, fn: Any, block: Any = None, source: str | None = None,
                 binding: dict[TypeVar, Any] | None = None):
        _check_function(fn, "@sarek.kernel")
        _given_source(fn, source)
        self.fn = fn
        self.name = fn.__name__
        self.binding = dict(binding or {})
        self._module: ModuleOp | None = None
        self.declared_block = _declared_block(block)
        self._fast: dict[Any, Any] = {}  # (device, grid, block, threads) -> runtime FastPath or None
        self._instances: dict[tuple[int, ...], Kernel] = {}
        functools.update_wrapper(self, fn)

    # generic kernels

    @user_api
    def __getitem__(self, types: Any) -> Kernel:
        """`k[f64]` / `k[f32, i64]`: the instance with the type variables (in order of first appearance in the
        signature) bound to these types. `k[grid, block]` (ints or tuples of ints, which no type is) is Numba's
        launch spelling: `k[g, b](*args)` is `k.launch(*args, grid=g, block=b)`."""
        given: tuple[Any, ...] = cast("tuple[Any, ...]", types) if isinstance(types, tuple) else (types,)
        if len(given) == 2 and all(_dims_like(x) for x in given):   # Numba's k[grid, block](args)
            return cast(Kernel, functools.partial(self.launch, grid=given[0], block=given[1]))
        tps = self.type_params
        if not tps:
            raise self._error(f"kernel '{self.name}' is not generic (no sarek.TypeVar in its annotations): use "
                              f"{self.name} itself; to launch it write {self.name}.launch(*args, grid=g, block=b) "
                              f"or Numba's {self.name}[g, b](*args) with integer grid and block")
        if len(given) != len(tps):
            raise self._error(f"kernel '{self.name}' has {len(tps)} type variable(s) ({', '.join(v.name for v in tps)}), "
                              f"{len(given)} type(s) given")
        binding: dict[TypeVar, Any] = {}
        for v, t in zip(tps, given):
            try:
                nt = normalize_type(t)
            except TypeError as e:
                raise self._error(f"{self.name}[...]: {e}") from None
            if not v.allows(nt):
                raise self._error(f"{self.name}[{type_name(nt)}]: type variable {v.name} is one of {v.allowed_text()}")
            binding[v] = nt
        return self.instance(binding)

    def instance(self, binding: dict[TypeVar, Any]) -> Kernel:
        key = self._instance_key(binding)
        inst = self._instances.get(key)
        if inst is None:
            inst = self._instances[key] = Kernel(self.fn, self.declared_block, binding=binding)
        return inst

    def _error(self, message: str) -> CompileError:
        from sarek.frontend.source import source_of

        src = source_of(self.fn)
        return src.error(src.fdef, message)

    def bind_launch(self, args: tuple[Any, ...]) -> Kernel:
        """The instance for these launch arguments: each type variable takes the dtype of the arrays and numpy
        scalars given for it; a Python number binds only what nothing else does."""
        from sarek.runtime.core import LaunchError

        params = self.annotations()
        if len(args) != len(params):
            return self  # the runtime reports the count against the first instance
        inf = Inference(self.type_params)
        for (p, ann), a in zip(params, args):
            tvs = type_vars([ann])
            if not tvs:
                continue
            if isinstance(a, bool | int | float) and isinstance(ann, TypeVar):
                inf.literal(ann, a, p.arg)
                continue
            ft = launch_type(ann, a)
            if ft is None:
                raise LaunchError(f"kernel {self.name}: cannot tell {tvs[0].name} from argument '{p.arg}' "
                                  f"({type(a).__name__}); pass a numpy array or scalar, or launch {self.name}[T]")
            if (clash := inf.bind(ann, ft, p.arg)) is not None:
                raise LaunchError(f"kernel {self.name}: {clash}")
        if (bad := inf.finish()) is not None:
            hint = f"; launch {self.name}[T] with T one of {self.type_params[0].allowed_text()}" if bad[1] is None else ""
            raise LaunchError(f"kernel {self.name}: {bad[0]}{hint}")
        binding = inf.binding
        return self.instance(binding)

    # compilation

    @property
    @user_api
    def module(self) -> ModuleOp:
        if self._module is None:
            from sarek.runtime.warm import module_from_cache

            self._module = module_from_cache(self)  # a warm start: no front end (never a generic kernel)
        if self._module is None:
            if self.type_params:
                v = self.type_params[0]
                raise self._error(f"kernel '{self.name}' is generic in {v.name} ({v.allowed_text()}): compile an "
                                  f"instance, e.g. {self.name}[{_example(v)}].source(\"cuda\"), or launch it "
                                  "(the arguments' dtypes pick the instance)")
            self._module = build_module(self)
        return self._module

    @property
    @user_api
    def adjoint(self) -> Kernel:
        """The reverse-mode adjoint (the `sarek-adjoint` pass): this kernel's parameters followed by one adjoint
        array per f32/f64 vector parameter; a launch accumulates the inputs' adjoints from the outputs'."""
        adj = self.__dict__.get("_adjoint")
        if adj is None:
            from sarek.passes.adjoint import adjoint_module

            try:
                module = adjoint_module(self.module, self.name)
            except CompileError:
                raise
            except SarekError as e:
                raise CompileError.from_sarek_error(e) from None
            from sarek.frontend.wire import kernel_from_module

            adj = self.__dict__["_adjoint"] = kernel_from_module(module, self.name + "_adjoint", self.declared_block)
        return adj

    def warm_closure(self) -> str:
        """The key of what this kernel closes over, for its warm-start record (sarek.frontend.warm_key)."""
        from sarek.frontend.warm_key import closure_key

        return closure_key(self)

    def ir_text(self) -> str:
        """The module as generic IR with locations (the warm-start record's and the pickle's text)."""
        from sarek.frontend.wire import kernel_ir_text

        return kernel_ir_text(self)

    @user_api
    def compile(self) -> Kernel:
        _ = self.module
        return self

    @user_api
    def ir(self, generic: bool = False) -> str:
        from sarek.registry import print_module

        return print_module(self.module, generic)

    @user_api
    def source(self, target: str = "cuda", **options: Any) -> str:
        from sarek.targets import emit_source

        try:
            return emit_source(self.module, target, **options)
        except CompileError:
            raise
        except SarekError as e:
            raise CompileError.from_sarek_error(e) from None

    # execution

    @user_api
    def launch(self, *args: Any, grid: Any = None, block: Any = UNSET, device: Any = None, threads: Any = None,
               stream: Any = None, debug: bool | None = None, passes: str | None = None, **unknown: Any) -> None:
        """Enqueue the kernel (sarek.runtime.launch): `grid=` blocks or `threads=` total threads, `block=`;
        `debug=True` (default $SAREK_DEBUG) for the bounds-checked build. Repeated launches with the same device
        and launch values reuse a cached plan (runtime.FastPath); debug launches and kernels that print do not.
        A generic kernel launches the instance its arguments' dtypes pick (compiled once per type tuple).
        `passes=` runs extra passes (sarek's or installed plugins') in this launch's compile."""
        instances: list[Kernel] | None = self.__dict__.get("_ir_instances")
        if instances is not None:  # an unpickled generic kernel
            from sarek.frontend.wire import pick_instance

            pick_instance(self.name, instances, args).launch(*args, grid=grid, block=block, device=device,
                                                              threads=threads, stream=stream, debug=debug,
                                                              passes=passes, **unknown)
            return
        generic = self.__dict__.get("_generic")
        if generic is None:
            generic = self.__dict__["_generic"] = bool(self.__dict__.get("fn") is not None and not self.binding
                                                        and not _warm(self, False) and self.type_params)
        if generic:
            self.bind_launch(args).launch(*args, grid=grid, block=block, device=device, threads=threads,
                                           stream=stream, debug=debug, passes=passes, **unknown)
            return
        key: Any = None
        if device is not None and stream is None and not unknown and not debug:
            key = (device, grid, block, threads, passes)
            fasts: dict[Any, Any] | None = self.__dict__.get("_fast")  # (absent in Kernels made by __new__)
            try:
                fast = fasts.get(key) if fasts is not None else None
            except TypeError:  # a list somewhere: not hashable
                key = fast = None
            if fast is not None and fast(args):  # made after a plain launch (a kernel's prints do not change;
                return  # the plan checks $SAREK_DEBUG)
            if key is not None and not self._plain():
                key = None
        from sarek.runtime import fast_path
        from sarek.runtime import launch as runtime_launch

        runtime_launch(self, list(args), grid, block, device, threads=threads, stream=stream, debug=debug,
                       passes=passes, **unknown)
        if key is not None:
            made: dict[Any, Any] = self.__dict__.setdefault("_fast", {})
            if key not in made:
                made[key] = fast_path(self, device, grid, block, threads, passes)

    def _plain(self) -> bool:
        """No debug mode from the environment and no print: the fast path may launch the module as it is."""
        from sarek.runtime.args import env_debug

        prints = self.__dict__.get("_has_prints")
        if prints is None:
            from sarek.runtime.warm import prints as spec_prints

            spec = _warm(self)
            if spec is not None:
                prints = spec_prints(spec)
            else:
                from sarek.runtime.debug import has_prints

                prints = has_prints(self.module)
            self.__dict__["_has_prints"] = prints
        return not prints and not env_debug()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"kernel '{self.name}' is not called directly: use {self.name}.launch(*args, grid=..., "
                        "block=...)")

    def __repr__(self) -> str:
        return f"<sarek kernel {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as its located IR text and name, not its Python function (Dask workers, other processes); a
        generic kernel as the IR of each of its instances (every binding its constrained type variables allow),
        the one to run picked at launch from the arguments' dtypes."""
        from sarek.frontend.wire import generic_kernel_from_ir, kernel_from_ir, kernel_ir_text

        texts = self.__dict__.get("_ir_texts")
        if texts is None and self.__dict__.get("fn") is not None and self.type_params:
            texts = tuple(kernel_ir_text(self.instance(b)) for b in self.bindings())
        if texts is not None:
            return (generic_kernel_from_ir, (texts, self.name, self.declared_block))
        return (kernel_from_ir, (kernel_ir_text(self), self.name, self.declared_block))

    def bindings(self) -> list[dict[TypeVar, Any]]:
        """Every binding of the type variables (each must list its types to be shipped)."""
        import itertools

        tps = self.type_params
        for v in tps:
            if not v.constraints:
                raise self._error(f"kernel '{self.name}' is generic in {v.name} (any element type) and cannot be "
                                  f"pickled: pickle an instance, e.g. {self.name}[f32], or list {v.name}'s types "
                                  f"(sarek.TypeVar(\"{v.name}\", f32, f64))")
        return [dict(zip(tps, c)) for c in itertools.product(*(v.constraints for v in tps))]


def _dims_like(x: Any) -> bool:
    """An int or a tuple of 1 to 3 ints (a grid or a block), which no type is: `k[grid, block]` is a launch."""
    import numpy as np

    if isinstance(x, tuple):
        items: tuple[Any, ...] = cast("tuple[Any, ...]", x)
        return 1 <= len(items) <= 3 and all(_dims_like(e) and not isinstance(e, tuple) for e in items)
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def _warm(k: Kernel, build: bool = True) -> Any:
    """The warm-start spec of `k` (sarek.runtime.warm; `build`: through the front end on a miss), None when it
    is not cacheable."""
    from sarek.runtime.warm import cached_spec, launch_spec

    return launch_spec(k) if build else cached_spec(k)


def _example(v: TypeVar) -> str:
    return type_name(v.constraints[0]) if v.constraints else "f32"


def build_module(k: Kernel) -> ModuleOp:
    """The module of `k`: its declarations, the helpers it reaches (callees first) and the kernel, verified."""
    from sarek.frontend.assemble import assemble_module

    return assemble_module(k.name, _lower(k.fn, "kernel", k.name, k.binding))


def _declared_block(block: Any) -> tuple[int, int, int] | None:
    if block is None:
        return None
    from sarek.runtime.core import LaunchError, dim3

    try:
        return dim3(block, "@kernel(block=...)")
    except LaunchError as e:
        file, line = user_frame()
        raise CompileError(e.message, file, line, 1 if line else None) from None


@user_api
def kernel(fn: Any = None, *, block: Any = None, source: str | None = None) -> Any:
    """Mark a kernel: every parameter annotated; compiled from its source at first use. `@kernel(block=256)`
    or `@kernel(block=(16, 16))` declares the block it is written for (the launch default; another block is a
    LaunchError). `source=` gives the source text where Python keeps none (`exec`, `python -c`, generated
    code): the text of the `def`, or the whole text that was executed."""
    if fn is None:
        def with_block(f: Any) -> Any:
            return kernel(f, block=block, source=source)

        return with_block
    if isinstance(fn, Kernel):
        if block is not None:
            fn.declared_block = _declared_block(block)
            fn.__dict__.pop("_fast", None)
        if source is not None:
            _given_source(fn.fn, source)
            fn._module = None  # pyright: ignore[reportPrivateUsage]
            for k in ("_warm_closure", "_warm_key", "_warm_spec", "_has_prints", "_fast"):  # no warm start now
                fn.__dict__.pop(k, None)
        return fn
    return Kernel(fn, block, source)


@user_api
def device(fn: Any = None, *, source: str | None = None) -> Any:
    """Mark a device function (helper) callable from kernels and other device functions; `source=` as for
    `kernel`."""
    if fn is None:
        def with_source(f: Any) -> Any:
            return device(f, source=source)

        return with_source
    if isinstance(fn, DeviceFunction):
        if source is not None:
            _given_source(fn.fn, source)
        return fn
    return DeviceFunction(fn, source)


def _given_source(fn: Any, source: str | None) -> None:
    """Parse `source=` now (a bad text is a CompileError at the decorator), for the lowering to use."""
    if source is None:
        return
    if not isinstance(source, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise CompileError(f"source= takes the function's source text (a str), got {type(source).__name__}",
                           *user_frame(), 1)
    from sarek.frontend.source import source_of

    source_of(fn, source)


@user_api
def compile(fn: Any) -> Kernel | DeviceFunction:  # noqa: A001 - the public name
    """Compile eagerly (raising CompileError now); a plain function is taken as a kernel."""
    if isinstance(fn, DeviceFunction):
        fn.compiled()
        return fn
    k = fn if isinstance(fn, Kernel) else Kernel(fn)
    return k.compile()
