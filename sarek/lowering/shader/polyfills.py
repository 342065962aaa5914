"""Helper functions the lowering emits: integer helpers (`sarek_irem`, `sarek_idiv`, `sarek_iabs`), the
float -> integer conversions (`sarek_f2i_<T>`); the in-range warp shuffle
(its lane guard is sarek-lower-warp's helper). Float math polyfills are sarek-expand-math's (sarek/mathlib)."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from sarek.dialect import sarek as S
from sarek.dialect.scalars import int_range
from sarek.lowering.shader.declarations import Declarations
from sarek.lowering.shader.language import err
from sarek.lowering.shader.state import scalar_key
from sarek.analysis.namer import IN_RANGE


class Polyfills(Declarations):
    """Integer helpers, declared once per (name, type); the in-range warp shuffle."""

    def need_poly(self, name: str, t: Attribute) -> str:
        """Declare an integer helper (`sarek_irem`: C's truncating %, `sarek_iabs`: integer abs as a select) for type t, once;
        returns its name. Float math the languages lack is the math library's (sarek-expand-math)."""
        T = self.ty(t)
        key = f"{name}:{T}"
        fname = self.global_name(f"helper:{name}")
        if key in self.polyfills:
            return fname
        sig, *body = self.lang.int_helpers[name]
        self.define_poly(key, sig.format(t=T, n=fname), [st.format(t=T) for st in body])
        return fname

    def define_poly(self, key: str, sig: str, body: list[str]) -> None:
        f = self.O["func"](sig)
        for st in body:
            f.regions[0].block.add_op(self.O["stmt"](st))
        self.polyfills[key] = [f]

    def float_to_int(self, src: Attribute, dst: Attribute) -> str:
        """The helper `sarek_f2i_<T>` converting a float of type src to the integer type dst as documented:
        truncated toward zero, saturated to dst's range, NaN giving 0 (the interpreters' conversion). The
        languages' own conversion is undefined out of range (naga clamps i32 at 2147483520, the f32 below
        2^31; NaN gave INT_MIN on lavapipe and the H200), so the helper compares with the range's bounds, lo and
        hi + 1, powers of two exact in every float type, and converts only an in-range value; GLSL overloads
        it on f32/f64. Declared once per (src, dst); returns its name."""
        T, F = self.ty(dst), self.ty(src)
        fname = self.global_name(f"helper:f2i_{scalar_key(dst)}")
        key = f"f2i:{T}:{F}"
        if key not in self.polyfills:
            lo, hi = int_range(dst)
            L, flo, ftop = self.lang, self.literal(src, lo), self.literal(src, hi + 1)
            inside = L.select.format(c=f"(x > {flo}) && (x < {ftop})", a="x", b=self.literal(src, 0))
            clamp = L.select.format(c=f"x <= {flo}", a=self.literal(dst, lo), b=f"{T}(y)")
            self.define_poly(key, L.func.format(r=T, n=fname, p=L.field.format(t=F, n="x")),
                             [L.let.format(t=F, n="y", v=inside),
                              "return " + L.select.format(c=f"x >= {ftop}", a=self.literal(dst, hi), b=clamp)])
        return fname

    def use_subgroups(self, op: Operation, shuffle: bool, extra: tuple[str, ...] = ()) -> None:
        self.uses_subgroup = True
        self.features.add("subgroup")
        for d in (*self.lang.subgroup_directives, *(self.lang.shuffle_directives if shuffle else ()), *extra):
            if d not in self.extensions:
                self.extensions.append(d)

    def warp_vote(self, op: S.IntrinsicOp, c: str) -> str:
        """warp_any / warp_all / warp_ballot: the subgroup's vote (a ballot's first 32 lanes)."""
        call, directives = self.lang.vote[op.callee.data]
        self.use_subgroups(op, shuffle=False, extra=directives)
        return call.format(c)

    def warp_shuffle(self, op: S.IntrinsicOp, v: str, src: str) -> str:
        """The in-range absolute shuffle `sarek-lower-warp` leaves in its helpers (the lane guard is its
        business): `subgroupShuffle` with the lane converted to unsigned; any other shuffle is refused."""
        name = op.callee.data
        if name != "warp_shuffle" or IN_RANGE not in op.attributes:
            raise err(f"'{name}' must be lowered by sarek-lower-warp before the {self.lang.name} lowering", op,
                      self.lang)
        t = op.result.type
        if scalar_key(t) not in self.lang.shuffle_types:
            raise err(f"'{name}' on {t} is not supported on {self.lang.name}", op, self.lang)
        self.use_subgroups(op, shuffle=True)
        return self.lang.shuffle.format(v=v, l=src)
