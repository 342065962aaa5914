"""The module-scope names of a shader module, decided once (sarek.analysis.namer's rules, for GLSL and WGSL).

`name_shader_module` records, as IR attributes the shader lowering only reads:

- per kernel its interface (`BUFFER_NAMES`, `DIM_NAMES`, `PARAM_NAMES`: namer.interface_names);
- per record and variant its struct (`NAME`), a record's members (`FIELD_NAMES`), a variant's constructor
  identifiers (`CTOR_IDS`), constructor functions `make_<T>_<C>` (`MAKE_NAMES`) and hoisted several-payload
  structs `<T>_<C>_payload` (`PAYLOAD_NAMES`, GLSL; `""` for a constructor without one) — the same
  attributes the C family reads, named against every kernel's interface globals;
- per kernel (`GLOBAL_NAMES`, a dictionary) the names it declares at module scope besides the types: the
  integer helpers (`helper:irem`, `helper:f2i_i32`, ...), shared arrays (`shared:<function>:<k>`, the k-th shared
  array of the function in walk order), helper specialisations (`spec:<helper>(<buffer>,..)`: one copy of a
  helper per tuple of buffers or shared arrays it is passed, in the order the lowering meets the calls) and
  GLSL buffer blocks (`block:<buffer>`).

Every name is escaped (namer.escape) and made unique in the shader's global scope (`<name>_<k>`, k from 1),
in that order: interface, integer helpers, types, shared arrays, specialisations, blocks. The integer helpers
are `sarek_` names, a prefix sarek-legalize-names takes from user names, and are named first, so nothing the
user wrote can take them. Locals and temporaries are named as the lowering makes them (`LoweringState.local`,
`temp`): which values get a temporary is the lowering's decision.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis import namer
from sarek.analysis.payload import TARGET_PAYLOAD_LAYOUT, PayloadLayout
from sarek.analysis.reserved import GENERATED_PREFIX
from sarek.dialect import sarek as S

#: the integer helpers a shader lowering may emit (Lang.int_helpers, and the float -> integer conversions
#: `f2i_<T>` of sarek.lowering.shader.polyfills), named `sarek_<helper>`
INT_HELPERS = ("irem", "idiv", "iabs", "f2i_i32", "f2i_u32", "f2i_i64", "f2i_u64")


class Globals:
    """One shader's global scope: escaped names made unique (`<name>_<k>`), avoiding `taken` and `macros`."""

    def __init__(self, target: str, taken: Iterable[str] = (), macros: Iterable[str] = ()):
        self.target = target
        self.taken = set(taken)
        self.macros = set(macros)

    def reserve(self, name: str) -> str:
        base = namer.escape(self.target, name)
        n, k = base, 0
        while n in self.taken or n in self.macros:
            k += 1
            n = f"{base}_{k}"
        self.taken.add(n)
        return n


def kernel_interface(k: S.KernelOp) -> tuple[list[str], list[list[str]], list[str]]:
    """The kernel's recorded (buffers, each vector's length or extents, scalar parameters)."""
    ranks = [a.type.ndim for _, a in k.params if isinstance(a.type, S.VecType)]
    flat = iter(namer.names_of(k, namer.DIM_NAMES, []))
    return (namer.names_of(k, namer.BUFFER_NAMES, []), [[next(flat) for _ in range(r)] for r in ranks],
            namer.names_of(k, namer.PARAM_NAMES, []))


def interface_globals(target: str, k: S.KernelOp) -> tuple[set[str], set[str]]:
    """The (globals, GLSL macros) a kernel's interface declares."""
    bufs, dims, scalars = kernel_interface(k)
    macros = namer.SHADER_INTERFACE[target].macros
    return set(bufs) | (set() if macros else set(scalars)), {x for ds in dims for x in ds} | (
        set(scalars) if macros else set())


def reachable_helpers(kernel: S.KernelOp, helpers: dict[str, S.HelperOp]) -> list[S.HelperOp]:
    """The helpers `kernel` calls, transitively (a depth-first stack: the lowering's declaration order);
    calls of undeclared helpers are skipped (the lowering refuses them)."""
    seen: dict[str, S.HelperOp] = {}
    stack: list[Operation] = [kernel]
    while stack:
        for op in stack.pop().walk():
            if isinstance(op, S.CallOp) and (h := helpers.get(op.callee_name)) is not None \
                    and h.sym_name.data not in seen:
                seen[h.sym_name.data] = h
                stack.append(h)
    return list(seen.values())


def _shared_allocs(f: Operation) -> list[S.AllocArrayOp]:
    return [o for o in f.walk() if isinstance(o, S.AllocArrayOp) and o.result.type.memspace == S.MemSpace.SHARED]


def shared_key(f: S.KernelOp | S.HelperOp, k: int) -> str:
    return f"shared:{f.sym_name.data}:{k}"


def spec_key(helper: str, buffers: Iterable[str]) -> str:
    return f"spec:{helper}({','.join(buffers)})"


def _name_decls(module: ModuleOp, target: str, g: Globals) -> None:
    """Structs, members, constructor functions and payload structs, in dependency order (type_order)."""
    from sarek.analysis.type_order import sort_type_decls

    decls = [o for o in module.ops if isinstance(o, S.RecordOp | S.VariantOp)]
    for d in sort_type_decls(decls):
        dn = d.sym_name.data
        d.attributes[namer.NAME] = StringAttr(g.reserve(dn.replace(".", "_")))
        if isinstance(d, S.RecordOp):
            fields: list[str] = []
            for f, _ in d.fields:
                n = namer.escape(target, f)
                while n in g.macros:
                    n = n + "_f"
                fields.append(n)
            namer.set_names(d, namer.FIELD_NAMES, fields)
            continue
        nested = TARGET_PAYLOAD_LAYOUT[target] == PayloadLayout.GLSL
        ids = namer.names_of(d, namer.CTOR_IDS, [])
        stem = dn.replace(".", "_")
        namer.set_names(d, namer.PAYLOAD_NAMES, [g.reserve(f"{stem}_{i}_payload") if nested and len(ps) > 1
                                                 else "" for i, (_, ps) in zip(ids, d.ctors)])
        namer.set_names(d, namer.MAKE_NAMES, [g.reserve(f"make_{stem}_{i}") for i in ids])


def _name_kernel(module: ModuleOp, target: str, k: S.KernelOp, g: Globals, table: dict[str, str]) -> None:
    """The kernel's shared arrays, helper specialisations and buffer blocks, after `table`'s (`GLOBAL_NAMES`)."""
    helpers = {o.sym_name.data: o for o in module.ops if isinstance(o, S.HelperOp)}
    allocs: dict[S.AllocArrayOp, str] = {}
    for f in [k, *reachable_helpers(k, helpers)]:
        for i, o in enumerate(_shared_allocs(f)):
            allocs[o] = table[shared_key(f, i)] = g.reserve(o.sym.data)
    bufs = kernel_interface(k)[0]
    vecs = [a for _, a in k.params if isinstance(a.type, S.VecType)]

    def walk(f: Operation, env: dict[SSAValue, str]) -> None:
        for op in f.walk():
            if isinstance(op, S.AllocArrayOp) and op in allocs:
                env[op.result] = allocs[op]
            elif isinstance(op, S.LetOp) and op.value in env:
                env[op.result] = env[op.value]
            elif isinstance(op, S.CallOp) and (h := helpers.get(op.callee_name)) is not None:
                arrays = [a for a in op.args if isinstance(a.type, S.VecType | S.ArrayType)]
                if any(a not in env for a in arrays):
                    continue  # a local array: refused by the lowering
                key = spec_key(h.sym_name.data, [env[a] for a in arrays])
                if key in table:
                    continue
                hn = h.sym_name.data
                table[key] = g.reserve(hn if not arrays else f"{hn}_{'_'.join(env[a] for a in arrays)}")
                formals = [a for a in h.body.block.args if isinstance(a.type, S.VecType | S.ArrayType)]
                walk(h, {x: env[a] for x, a in zip(formals, arrays)})

    walk(k, dict(zip(vecs, bufs)))
    block = namer.SHADER_INTERFACE[target].block
    if block is not None:
        table |= {f"block:{b}": g.reserve(block.format(b)) for b in bufs}
    k.attributes[namer.GLOBAL_NAMES] = DictionaryAttr({n: StringAttr(v) for n, v in table.items()})


def name_shader_module(module: ModuleOp, target: str, overwrite: bool = True) -> None:
    """Record every module-scope name of the shader module (see the module docstring); with `overwrite`
    false (a lowering run without sarek-legalize-names) only what is missing."""
    variants = [o for o in module.ops if isinstance(o, S.VariantOp)]
    kernels = [o for o in module.ops if isinstance(o, S.KernelOp)]
    for v in variants:
        if overwrite or namer.CTOR_IDS not in v.attributes:
            namer.set_names(v, namer.CTOR_IDS, namer.ctor_ids([cn for cn, _ in v.ctors], target))
    members = namer.variant_members(TARGET_PAYLOAD_LAYOUT[target], [
        (i, len(ps)) for v in variants for i, (_, ps) in zip(namer.names_of(v, namer.CTOR_IDS, []), v.ctors)])
    taken: set[str] = set()
    macros: set[str] = set()
    for k in kernels:
        if overwrite or namer.BUFFER_NAMES not in k.attributes:
            params = [(n, a.type.ndim if isinstance(a.type, S.VecType) else 0) for n, a in k.params]
            buffers, dims, scalars = namer.interface_names(target, params, members)
            namer.set_names(k, namer.BUFFER_NAMES, buffers)
            namer.set_names(k, namer.DIM_NAMES, [x for ds in dims for x in ds])
            namer.set_names(k, namer.PARAM_NAMES, scalars)
        ts, ms = interface_globals(target, k)
        taken |= ts
        macros |= ms
    g = Globals(target, taken, macros)
    ints = {f"helper:{h}": g.reserve(GENERATED_PREFIX + h) for h in INT_HELPERS}
    if overwrite or any(namer.NAME not in d.attributes for d in module.ops if isinstance(d, S.RecordOp | S.VariantOp)):
        _name_decls(module, target, g)
    else:
        g.taken |= {n for d in module.ops for n in decl_globals(d)}
    for k in kernels:
        if overwrite or namer.GLOBAL_NAMES not in k.attributes:
            ts, ms = interface_globals(target, k)
            _name_kernel(module, target, k, Globals(target, (g.taken - taken) | ts, ms), dict(ints))


def decl_globals(d: Operation) -> list[str]:
    """The global names a named declaration holds (its struct, constructor functions, payload structs)."""
    if not isinstance(d, S.RecordOp | S.VariantOp):
        return []
    return [namer.decl_name(d, ""), *(n for key in (namer.MAKE_NAMES, namer.PAYLOAD_NAMES)
                                      for n in namer.names_of(d, key, []) if n)]


def global_name(kernel: S.KernelOp, key: str) -> str:
    """The name `name_shader_module` gave `key` in `kernel`'s global scope."""
    a = kernel.attributes[namer.GLOBAL_NAMES]
    assert isinstance(a, DictionaryAttr)
    v: Attribute = a.data[key]
    assert isinstance(v, StringAttr), key
    return v.data


def shared_names(kernel: S.KernelOp, helpers: dict[str, S.HelperOp]) -> dict[S.AllocArrayOp, str]:
    """The recorded name of each shared array the kernel declares (its own and its helpers')."""
    return {o: global_name(kernel, shared_key(f, i)) for f in [kernel, *reachable_helpers(kernel, helpers)]
            for i, o in enumerate(_shared_allocs(f))}
