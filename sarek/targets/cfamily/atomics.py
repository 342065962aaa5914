"""Float atomics the C-family languages lack natively: one compare-and-swap loop on the bits, spelled by the
language's `FloatCas` table (CUDA, HIP, OpenCL C and Metal differ only there).

`float_atomic_helper(lang, op, t, space)` gives the name and the definition of a device function
`sarek_atomic_<op>_<f32|f64>_<space>(pointer, operand[, new])` returning the old value. Where the compiler may
have the operation natively (`Language.float_native`: OpenCL's cl_ext_float_atomics, Metal 3's atomic_float)
the native call is the `#if` branch and the loop the `#else`. min/max replace the stored value only when the
operand compares strictly less/greater (a NaN operand never replaces, a stored NaN stays, -0.0 and 0.0 are
equal: the interpreters' rule, docs/KERNELS.md); exch and cas are one integer exchange / compare-and-swap of
the bits (cas compares bit patterns).
"""

from __future__ import annotations

from sarek.targets.cfamily.languages import Language

#: the float atomics a language's FloatCas table gives (inc/dec: add/sub of one); bitwise ones are refused
FLOAT_OPS = frozenset({"atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch", "atomic_cas",
                       "atomic_inc", "atomic_dec"})

#: the new value from the current one (`x`) and the operand (`v`)
_UPDATE = {"add": "{x} + v", "sub": "{x} - v", "min": "v < {x} ? v : {x}", "max": "v > {x} ? v : {x}"}
_WIDTH = {"float": "f32", "double": "f64"}


def float_atomic_helper(lang: Language, op: str, t: str, space: str) -> tuple[str, str]:
    """(function name, definition) of the float atomic `op` (add sub min max exch cas) on C type `t` in
    `space` (global or shared)."""
    cas = lang.float_cas[t]
    q = lang.atomic_space[space]
    name = f"sarek_atomic_{op}_{_WIDTH[t]}_{space}"
    ptr = lang.helper_ptr[space].format(t=t)
    bptr = cas.ptr.format(q=q)
    params = f"{ptr} p, {t} v" + (f", {t} w" if op == "cas" else "")
    view = f"  {bptr} a = ({bptr})p;"
    if op in ("cas", "exch"):  # one native integer operation on the bits
        bits = [cas.to_bits.format(x) for x in ("v", "w")[:2 if op == "cas" else 1]]
        body = [view, f"  return {cas.from_bits.format((cas.cas if op == 'cas' else cas.exch).format('a', *bits, q=q))};"]
    else:
        update = _UPDATE[op]
        cur = [f"    {t} x = {cas.from_bits.format('seen')};"]
        new = cas.to_bits.format(update.format(x="x"))
        body = [view, f"  {cas.bits} old = {cas.load.format('a')}, seen;", "  do {", "    seen = old;", *cur,
                f"    old = {cas.cas.format('a', 'seen', new, q=q)};", "  } while (old != seen);",
                f"  return {cas.from_bits.format('old')};"]
    native = lang.float_native(op, t, space)
    if native is not None:
        cond, expr = native
        body = [f"#if {cond}", f"  return {expr.format('p', 'v')};", "#else", *body, "#endif"]
    return name, "\n".join([f"{lang.inline_prefix} {t} {name}({params}) {{", *body, "}"])
