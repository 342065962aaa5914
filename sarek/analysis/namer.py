"""The naming stage's rules, once (naga's `proc::Namer`): how a sarek name becomes a target identifier.

- the reserved words of each language are one table, `sarek.analysis.reserved` (naga's `back/<lang>/keywords.rs`);
- `sanitize` is the one stem rule: an ASCII identifier for any name (`x'` -> `x`, `1a` -> `v1a`, `π` -> `v`);
- `Namer.fresh` is the one uniqueness rule: `<stem>` (where allowed) else `<stem>_<k>`, k from 1, the first the
  module does not use and the target does not reserve;
- `LENGTH_LIMIT` bounds every identifier per language; `shorten` cuts a longer one stably (a crc32 suffix keeps
  two long names distinct);
- `GENERATED_PREFIX` (`sarek_`) starts every helper, temporary and renamed entry point sarek makes; every target
  reserves it, so sarek-legalize-names renames a user name that has it and the two can never collide;
- `entry_name` is the entry point of a kernel (what a runtime looks up), a function of the kernel's name only;
- `escape` is the shading languages' spelling rule for a name the shader lowering declares as it is.

- `interface_names` names a shader kernel's interface (buffers, vector lengths and extents, scalar parameters)
  by the `SHADER_INTERFACE` rules of each shading language.

sarek-legalize-names (sarek/passes/legalize_names.py) applies these rules to a module and records the result
as IR attributes (`NAME`, `FIELD_NAMES`, `TAG_NAMES`, `CTOR_IDS`, `MAKE_NAMES`, `ENTRY_NAME`; shaders
`BUFFER_NAMES`, `DIM_NAMES`, `PARAM_NAMES`, `PAYLOAD_NAMES`, `GLOBAL_NAMES`: sarek.analysis.shader_names);
the lowerings read them (`decl_name`, `names_of`). The shader lowering still names, as it lowers, its
temporaries and the locals it escapes (sarek/lowering/shader/state.py).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.analysis.reserved import GENERATED_PREFIX, RESERVED, is_member_reserved, is_reserved
from sarek.registry import TARGETS

if TYPE_CHECKING:  # (the IR is imported where names are read or set: a warm launch's `entry_name` needs none)
    from xdsl.ir import Operation

# The longest identifier each language's tools take, from the descriptors (`length_limit`): glslang refuses
# names over 1024 characters; pocl aborts the process (SIGABRT) building a kernel whose name has 255 or more (it
# names files after it), so OpenCL identifiers stay well below; the others are held to GLSL's bound.
LENGTH_LIMIT: dict[str, int] = {n: t.length_limit for n, t in TARGETS.items()}
_SUFFIX_ROOM = 8  # room left under the limit for a `_<k>` suffix
_INTERFACE_ROOM = 64  # room left under a shader's limit for an escaped name's interface prefixes and suffixes

# IR attributes sarek-legalize-names writes and the lowerings read (discardable attributes, printed by sarek-opt)
NAME = "sarek.name"                # record / variant: the target's type name
FIELD_NAMES = "sarek.field_names"  # record: the member name of each field, in declaration order
TAG_NAMES = "sarek.tag_names"      # variant: the C enum tag of each constructor
CTOR_IDS = "sarek.ctor_ids"        # variant: each constructor's identifier (`<id>_v` union member / payload)
# sarek-lower-warp marks a warp shuffle whose source lane it proved in range; the lowerings then skip the guard
IN_RANGE = "sarek.lane_in_range"
MAKE_NAMES = "sarek.make_names"    # variant: each constructor's C function `make_<T>_<C>`
ENTRY_NAME = "sarek.entry_name"    # kernel: the entry point's name
BUFFER_NAMES = "sarek.buffer_names"  # shader kernel: each vector parameter's storage buffer, in order
DIM_NAMES = "sarek.dim_names"      # shader kernel: the length (1-D) or each extent of the vectors, in order
PARAM_NAMES = "sarek.param_names"  # shader kernel: each scalar parameter's name in the parameter block
PAYLOAD_NAMES = "sarek.payload_names"  # shader variant: each constructor's hoisted payload struct ("": none)
GLOBAL_NAMES = "sarek.global_names"  # shader kernel: its other module-scope names (sarek.analysis.shader_names)
GENERATED = "sarek.generated"      # helper (set by the pass that made it, sarek-expand-math): its `sarek_` name is legal

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def invalid_identifier(name: str) -> bool:
    """Not an ASCII identifier, so no target can declare it as it is (`x'`, `1a`, ``, `a.b`, `π`)."""
    return _IDENT.fullmatch(name) is None


def sanitize(name: str) -> str:
    """A valid identifier stem for `name`: other characters become `_`, runs of `_` collapse, no leading or
    trailing `_`, a leading digit (or nothing left) gets `v` (`x'` -> `x`, `1a` -> `v1a`, `π` -> `v`)."""
    s = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", name)).strip("_")
    return "v" + s if not s or s[0].isdigit() else s


def crc(name: str) -> str:
    """A stable 8-hex-digit digest of `name` (keeps shortened or transliterated names distinct)."""
    return f"{zlib.crc32(name.encode()):08x}"


def shorten(name: str, limit: int) -> str:
    """`name` if it has at most `limit` characters, else its first characters + `_<crc32 of name>`."""
    return name if len(name) <= limit else f"{name[:limit - 9]}_{crc(name)}"


def too_long(target: str, name: str) -> bool:
    return len(name) > LENGTH_LIMIT[target]


def entry_name(kernel: str, target: str) -> str:
    """The entry point of kernel `kernel` on `target` (what a runtime looks up): the kernel's own name unless
    it is not an ASCII identifier (`π`: CUDA refuses universal characters in entity names) or is too long,
    then `sarek_<stem>_<crc32>`; or the target reserves it (`main`, OpenCL's `kernel`, `sqrt`), then
    `sarek_<name>`. Binders never get a `sarek_` name, so it clashes with nothing."""
    limit = LENGTH_LIMIT[target] - 20
    if invalid_identifier(kernel) or len(kernel) > limit:
        return f"{GENERATED_PREFIX}{shorten(sanitize(kernel), limit)}_{crc(kernel)}"
    return GENERATED_PREFIX + kernel if target != "ptx" and is_reserved(target, kernel) else kernel


def comment_text(text: str) -> str:
    """`text` as it may appear inside a generated `//` comment: printable ASCII only, every other character
    (a line break that would end the comment and inject the rest as code, a backslash that would continue it
    onto the next line, U+2028 ...) spelled `<U+XXXX>`; `*/` broken up for block comments."""
    out = "".join(c if " " <= c <= "~" and c != "\\" else f"<U+{ord(c):04X}>" for c in text)
    return out.replace("*/", "*<U+002F>")


def symbol_part(name: str) -> str:
    """`name` as part of a generated symbol or label (`<entry>_<array>_<k>`, `ret_<helper>`): the name itself
    when it is a short ASCII identifier, else a short stem and its crc32 (`π` -> `v_<crc>`)."""
    if invalid_identifier(name) or len(name) > 64:
        return f"{sanitize(name)[:48]}_{crc(name)}"
    return name


class Namer:
    """Fresh names for one target, avoiding `taken` (which grows with every name given)."""

    def __init__(self, target: str, taken: Iterable[str] = ()):
        self.target = target
        self.taken = set(taken)
        self.next_suffix: dict[str, int] = {}  # base -> the first `_<k>` suffix not yet known to be used

    def reserved(self, name: str) -> bool:
        """The target cannot declare `name`: a reserved word or prefix, or too long."""
        return is_reserved(self.target, name) or too_long(self.target, name)

    def bad(self, name: str) -> bool:
        """`name` cannot be declared as it is."""
        return invalid_identifier(name) or self.reserved(name)

    def fresh(self, base: str, bare: bool = True) -> str:
        """`base` (when `bare`), else `<base>_<k>`, k from 1: the first `taken` lacks and the target allows.
        `base` is shortened to fit; one in a reserved family (`half_*` on OpenCL) becomes `v_<base>`."""
        base = shorten(base, LENGTH_LIMIT[self.target] - _SUFFIX_ROOM)
        if self.reserved(base + "_1") and self.reserved(base + "_2"):
            base = "v_" + base
        if bare and base not in self.taken and not self.reserved(base):
            self.taken.add(base)
            return base
        k = self.next_suffix.get(base, 1)  # names only join `taken`: suffixes below k stay used
        while (name := f"{base}_{k}") in self.taken or self.reserved(name):
            k += 1
        self.next_suffix[base] = k + 1
        self.taken.add(name)
        return name

    def member(self, name: str) -> str:
        """A C struct member for field `name` (`taken` holds the record's fields): the name unless it cannot be a
        member (`int`, `half`, a macro such as `NULL`; `min` or `length` can), then `<field>_f`[`_<k>`]."""
        if invalid_identifier(name) or is_member_reserved(self.target, name) or too_long(self.target, name):
            return self.fresh(f"{sanitize(name)}_f")
        return name


def ctor_ids(ctors: Sequence[str], target: str) -> list[str]:
    """Each constructor's identifier (union member `<id>_v`, payload fields) of a variant whose constructors
    are `ctors`: its name, or a fresh ASCII one for a name that is not an ASCII identifier (`Léer`, `π`)."""
    ids = Namer(target, ctors)
    return [ids.fresh(sanitize(cn)) if invalid_identifier(cn) or too_long(target, cn) else cn for cn in ctors]


class TakenNames(set[str]):
    """A set of names in use that also remembers, per temporary base, the next suffix to try: `temporary` then
    costs O(1) amortised instead of probing `sarek_t`, `sarek_t_1`, ... from the start each time (quadratic in
    a function's temporaries). Names only ever join the set, so the first free suffix never moves backwards and
    the names given are exactly those of the linear probe."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        super().__init__(names)
        self.next_suffix: dict[str, int] = {}


def temporary(hint: str | None, taken: TakenNames) -> str:
    """A generated temporary `sarek_<hint>` (`sarek_t` without a usable hint), `_<k>` until `taken` lacks it."""
    base = GENERATED_PREFIX + (hint if hint and hint.isidentifier() and not hint.isdigit() else "t")
    k = taken.next_suffix.get(base, 0)
    name = base if k == 0 else f"{base}_{k}"
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.next_suffix[base] = k + 1
    taken.add(name)
    return name


def escape(target: str, name: str) -> str:
    """The spelling of `name` in a shading language (`target` glsl or wgsl), for names declared unrenamed.

    GLSL: a reserved word gets a `v` suffix (`int` -> `intv`), a `gl_` name a `v` prefix (`gl_x` -> `vgl_x`),
    runs of `_` collapse (GLSL reserves `__`). WGSL: `_`, `__*` and reserved words get a `sarek_` prefix.
    A `sarek_` name is sarek's own (sarek-legalize-names renames user names that have the prefix), kept.
    A name near the language's length limit is shortened (`shorten`), leaving room for the prefixes and suffixes
    the interface adds (`Buffer_<b>`, `sarek_<b>_length`): glslang refuses identifiers over 1024 characters."""
    s = shorten(re.sub(r"[^A-Za-z0-9_]", "_", name) or "v", LENGTH_LIMIT[target] - _INTERFACE_ROOM)
    if s[0].isdigit():
        s = "v" + s
    if target == "glsl":
        if s.startswith("gl_"):  # a suffix would leave the reserved `gl_` prefix
            s = "v" + s
        elif s in RESERVED["glsl"]:
            s = s + "v"
        return re.sub(r"__+", "_", s)
    if s == "_" or s.startswith("__") or s in RESERVED["wgsl"]:
        s = GENERATED_PREFIX + s
    return s


# ------------------------------------------------------------------------------------------------ shader interface


@dataclass(frozen=True)
class ShaderInterface:
    """How a shading language names a kernel's interface."""

    length: str  # the length of the vector whose buffer is {b}
    dim: str  # extent {d} of an N-dimensional vector
    macros: bool  # lengths and scalars are `#define` macros (GLSL): never like a swizzle or a variant member
    block: str | None  # the interface block of the buffer {} (None: no block)


SHADER_INTERFACE = {"glsl": ShaderInterface("{b}_len", "{b}_dim{d}", macros=True, block="Buffer_{}"),
                    "wgsl": ShaderInterface("sarek_{b}_length", "sarek_{b}_dim{d}", macros=False, block=None)}


def is_swizzle(name: str) -> bool:
    """Whether `name` reads as a GLSL vector swizzle (`.x`, `.xy`, `.rgba`, `.st` ...)."""
    return 1 <= len(name) <= 4 and any(set(name) <= set(cs) for cs in ("xyzw", "rgba", "stpq"))


def variant_members(layout: PayloadLayout, ctors: Iterable[tuple[str, int]]) -> set[str]:
    """The member names of variant structs (`tag`, payload fields, `_<i>`) whose constructors are
    (identifier, arity): a GLSL macro must not take them."""
    out: set[str] = set()
    for ctor, arity in ctors:
        out.add("tag")
        out.update(payload_fields(layout, ctor, arity, i)[0] for i in range(arity))
        out.update(f"_{i}" for i in range(arity) if arity > 1)
    return out


def interface_names(target: str, params: Sequence[tuple[str, int]], members: set[str]
                    ) -> tuple[list[str], list[list[str]], list[str]]:
    """A shader kernel's (buffers, each buffer's length or extents, scalar parameters); `params` are the
    kernel's (name, rank) in order, rank 0 for a scalar. Buffers are escaped names made unique (`<name>_<k>`),
    lengths get a `sarek_` prefix until unique, scalars a `_` suffix."""
    rules = SHADER_INTERFACE[target]
    taken: set[str] = set()
    macros: set[str] = set()
    buffers: list[str] = []
    for n, rank in params:
        if rank:
            base = escape(target, n)
            name, k = base, 0
            while name in taken:
                k += 1
                name = f"{base}_{k}"
            taken.add(name)
            buffers.append(name)
    dims: list[list[str]] = []
    for b, rank in zip(buffers, [r for _, r in params if r]):
        ds: list[str] = []
        for d in range(rank):
            ln = rules.length.format(b=b) if rank == 1 else rules.dim.format(b=b, d=d)
            while ln in taken or ln in macros:
                ln = GENERATED_PREFIX + ln
            if rules.macros:
                macros.add(ln)
            ds.append(ln)
        dims.append(ds)
    extents = {x for ds in dims for x in ds}
    scalars: list[str] = []
    for n, rank in params:
        if not rank:
            # a GLSL macro named like a swizzle (`x`, `xy`, `rgb` ...) would rewrite `gl_GlobalInvocationID.x`,
            # one named like a variant member (`tag`, `C_v`, `_0`) every `v.tag`
            e = escape(target, n)
            while e in taken or e in macros or e in extents or (rules.macros and (is_swizzle(e) or e in members)):
                e = e + "_"
            (macros if rules.macros else taken).add(e)
            scalars.append(e)
    return buffers, dims, scalars


# ------------------------------------------------------------------------------------------------ reading names


def decl_name(op: Operation, default: str) -> str:
    """The target name sarek-legalize-names gave a declaration (`NAME`, `ENTRY_NAME`), else `default`."""
    from xdsl.dialects.builtin import StringAttr

    a = op.attributes.get(NAME) or op.attributes.get(ENTRY_NAME)
    return a.data if isinstance(a, StringAttr) else default


def names_of(op: Operation, key: str, default: list[str]) -> list[str]:
    """The per-field / per-constructor names sarek-legalize-names recorded under `key`, else `default`."""
    from xdsl.dialects.builtin import ArrayAttr, StringAttr
    from xdsl.ir import Attribute

    a = op.attributes.get(key)
    if isinstance(a, ArrayAttr):
        items = cast(ArrayAttr[Attribute], a).data
        return [x.data for x in items if isinstance(x, StringAttr)]
    return default


def set_names(op: Operation, key: str, names: list[str]) -> None:
    from xdsl.dialects.builtin import ArrayAttr, StringAttr

    op.attributes[key] = ArrayAttr(StringAttr(n) for n in names)
