"""Helper functions the lowering emits: integer helpers (`sarek_irem`, `sarek_iabs`); the in-range warp shuffle
(its lane guard is sarek-lower-warp's helper). Float math polyfills are sarek-expand-math's (sarek/mathlib)."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.declarations import Declarations
from sarek.lowering.shader.language import err
from sarek.lowering.shader.state import scalar_key
from sarek.passes.lower_warp import IN_RANGE


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
        sig, body = self.lang.int_helpers[name]
        f = self.O["func"](sig.format(t=T, n=fname))
        f.regions[0].block.add_op(self.O["stmt"](body.format(t=T)))
        self.polyfills[key] = [f]
        return fname

    def use_subgroups(self, op: Operation, shuffle: bool) -> None:
        self.uses_subgroup = True
        self.features.add("subgroup")
        for d in (*self.lang.subgroup_directives, *(self.lang.shuffle_directives if shuffle else ())):
            if d not in self.extensions:
                self.extensions.append(d)

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
