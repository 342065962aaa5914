"""The generator's top level: `@device` helpers, the kernel (its locals, shared-memory and warp stage, outputs)
and the module (records, variants, imports, parameters, CASE)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sarek.testing.gen.pylang import PyLang
from sarek.testing.gen.features import (COOPWG_KS, COOPWG_NS, FB_MAX, NARROW_FLOATS, STORE, FE, IE, Helper,
                                        Program, Var)


class Gen(PyLang):
    """Builds one kernel module (Gen(seed).program())."""

    def view_helper(self) -> list[str]:
        """Feature "views": the device function the kernel passes views of `af` to (floats.fview), which takes a
        view of its own view and reads both."""
        return ["@device", f"def fz{self.seed}_view(v: Vec[f32], k: i32) -> f32:", "    w = v[k:]",
                "    return w[0] + v[k] * 0.5 + f32(len(w))", ""]

    def helper(self, idx: int) -> list[str]:
        r = self.r
        name = f"fz{self.seed}_h{idx}"
        params = [(f"x{k}", r.choice(self.int_types + self.float_types)) for k in range(r.randint(1, 3))]
        ret = r.choice(self.int_types + self.float_types)
        self.out = []
        self.depth = 1
        self.in_helper = True
        saved = self.vars
        self.vars = []
        ro: list[IE] = []
        for pn, ty in params:
            if ty in ("i32", "i64"):
                ro.append(IE(pn, ty, -STORE[ty], STORE[ty]))
        self.ivars_ro = ro
        # issue 33's Python semantics, drawn from a stream of their own (the other draws stay as they were): a
        # parameter assigned (an int one stays in its range, a float one inexact within FCLAMP), a second
        # returned value (`-> tuple[ret, T]`, `return e, <a parameter>`; callers read `[0]`)
        pr = random.Random(f"sarek-fuzz-pysem-{self.seed}-{idx}")
        for pn, ty in params:
            if pr.random() < 0.3:
                if ty in ("i32", "i64"):
                    c, d = pr.randint(2, 7), pr.randint(-9, 9)
                    s = STORE[ty]
                    e = self.store(IE(f"{pn} * {c} + {d}", ty, -s * c - 9, s * c + 9))
                    self.emit(f"{pn} = {e.text}")
                else:
                    self.emit(f"{pn} = {pn} * 0.5 + {pr.choice(['1.0', '-2.0', '0.25'])}")
        second = params[pr.randrange(len(params))] if pr.random() < 0.3 else None
        # float parameters are read-only inexact values
        fparams = [Var(pn, ty, False, ro=True) for pn, ty in params if ty not in ("i32", "i64")]
        locs: list[Var] = []
        for ty in dict.fromkeys(ty for _, ty in params):  # ordered (a set is not)
            if ty in ("i32", "i64"):
                v = Var(self.fresh("y"), ty)
                self.emit(f"{v.name} = {self.store(self.iexpr(ty, 2)).text}")
                locs.append(v)
        self.vars = fparams + locs
        # parameters may not be assigned: only the locals are mutable
        for _ in range(r.randint(0, 3)):
            mutable = [v for v in locs]
            if not mutable:
                break
            self.stmt(3, 1)
        tail = f", {second[0]}" if second else ""
        if r.random() < 0.4:
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"return {self.ret_expr(ret)}{tail}")
            self.depth -= 1
        self.emit(f"return {self.ret_expr(ret)}{tail}")
        self.vars = [v for v in locs]  # params are not mutable
        body = self.out
        self.vars = saved
        self.ivars_ro = []
        self.in_helper = False
        sig = ", ".join(f"{pn}: {ty}" for pn, ty in params)
        self.helpers.append(Helper(name, params, ret, second[1] if second else ""))
        rt = f"tuple[{ret}, {second[1]}]" if second else ret
        return ["@device", f"def {name}({sig}) -> {rt}:", *body, ""]

    def ret_expr(self, ty: str) -> str:
        if ty in ("i32", "i64"):
            return self.store(self.iexpr(ty, 2)).text
        return self.ftyped(self.fclamp(self.fexpr(ty, 2))).text

    def kernel(self) -> list[str]:
        r = self.r
        self.out = []
        self.depth = 1
        self.emit("i = global_thread_id")
        if self.barrier_mode:
            self.imports.add("thread_idx_x")
            self.emit("t = thread_idx_x")
        ints = [Var(self.fresh("v"), r.choice(self.int_types)) for _ in range(r.randint(1, 3))]
        floats = [Var(self.fresh("g"), r.choice(self.float_types), r.random() < 0.5) for _ in range(r.randint(1, 3))]
        if not self.barrier_mode:
            self.emit("if i < n:")
            self.depth += 1
        for v in ints:
            self.emit(f"{v.name} = {self.store(self.typed(self.iexpr(v.ty, 2))).text}")
            self.vars.append(v)
        for v in floats:
            if v.exact:
                e = self.fexpr(v.ty, 2, need_exact=True)
                if e.fb > FB_MAX:
                    self.imports.add("sm")
                    e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
                e = self.fclamp(e, 256.0)
            else:
                e = self.fclamp(self.fexpr(v.ty, 2))
            self.emit(f"{v.name} = {self.ftyped(e).text}")
            self.vars.append(v)
        if self.narrow:
            zn = self.fresh("zn")
            self.emit(f"{zn} = an[{self.index(self.iexpr('i32', 1))}]")
            self.zn = zn
            self.narrow_assign()
        if self.has_rec:
            self.emit(f"p = {self.rec}(a={self.store(self.iexpr('i32', 1)).text}, "
                      f"b={self.ftyped(self.fclamp(self.fexpr('f32', 1))).text})")
            self.p_ready = True
        if self.has_var:
            self.emit(f"vv = {self.var_t}.C()")
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"vv = {self.var_t}.A({self.store(self.iexpr('i32', 1)).text})")
            self.depth -= 1
            self.emit(f"elif {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"vv = {self.var_t}.B({self.ftyped(self.fclamp(self.fexpr('f32', 1))).text}, "
                      f"{self.store(self.iexpr('i32', 1)).text})")
            self.depth -= 1
        if "local" in self.feats:
            self.imports.add("local_array")
            q = self.fresh("q")
            self.ivars_ro.append(IE(q, "i32", 0, 3))
            if "arrays" in self.feats:  # a 2-D private array, filled row-major
                self.emit("la = local_array(i32, (2, 2))")
                self.emit(f"for {q} in range(4):")
                self.depth += 1
                self.emit(f"la[{q} // 2, {q} % 2] = {self.store(self.iexpr('i32', 2)).text}")
            else:
                self.emit("la = local_array(i32, 4)")
                self.emit(f"for {q} in range(4):")
                self.depth += 1
                self.emit(f"la[{q}] = {self.store(self.iexpr('i32', 2)).text}")
            self.ivars_ro.pop()
            self.depth -= 1
        if "zeroinit" in self.feats:
            self.zero_locals(ints, floats)
        if "tiling" in self.feats:
            self.tiling(ints, floats)
        if self.barrier_mode:
            self.barrier_stage(ints, floats)
        if "coop" in self.feats:
            self.coop_stage()
        if "coop16" in self.feats:
            self.coop16_stage()
        if "coopwg" in self.feats:
            self.coopwg_stage()
        if "local" in self.feats:
            v = r.choice(ints)
            if v.ty == "i32":
                if "arrays" in self.feats:
                    self.emit(f"{v.name} = la[{self.index(self.iexpr('i32', 1), 'la.shape[0]')}, "
                              f"{self.index(self.iexpr('i32', 1), '2')}]")
                else:
                    self.emit(f"{v.name} = la[{self.index(self.iexpr('i32', 1), '4')}]")
        budget = r.randint(2, 10)
        used = 0
        while used < budget:
            used += self.stmt(budget - used, 0)
        self.outputs = {"oi": [v for v in ints if v.ty == "i32"], "ol": [v for v in ints if v.ty == "i64"],
                        "of": [v for v in floats if v.ty == "f32"], "od": [v for v in floats if v.ty == "f64"]}
        if self.has_rec:
            self.outputs["oi"].append(Var("p.a", "i32"))
            self.outputs["of"].append(Var("p.b", "f32"))
        if self.narrow:
            fl = self.narrow in NARROW_FLOATS
            self.outputs["of" if fl else "oi"].append(Var(f"f32({self.zn})" if fl else self.narrow_as_i32().text, "i32"))
            self.emit(f"on[i] = {self.zn}")
        for vec, vs in self.outputs.items():
            for j, v in enumerate(vs):
                self.emit(f"{vec}[i * {len(vs)} + {j}] = {v.name}")
        return self.out

    def barrier_stage(self, ints: list[Var], floats: list[Var]) -> None:
        r = self.r
        if self.zshared:
            self.zero_shared(ints)
        if "shared" in self.feats:
            self.imports.update({"shared", "barrier"})
            for ty, vs in (("i32", [v for v in ints if v.ty == "i32"]), ("f32", [v for v in floats if v.ty == "f32"])):
                if not vs:
                    continue
                s = self.fresh("s")
                self.emit(f"{s} = shared({ty}, {self.block})" if "arrays" not in self.feats else
                          f"{s} = shared({ty}, ({self.block // 16}, 16))")  # 2-D: rows of 16 threads
                src = r.choice(vs)
                self.emit(f"{s}[t] = {src.name}" if "arrays" not in self.feats else f"{s}[t // 16, t % 16] = {src.name}")
                self.emit("barrier()")
                dst = r.choice(vs)
                k = r.randint(1, self.block - 1)
                if dst.exact or ty == "i32" or True:
                    # reading a neighbour's value: same kind (exact stays exact) only when src and dst match
                    dst = src
                self.emit(f"{dst.name} = {s}[(t + {k}) % {self.block}]" if "arrays" not in self.feats else
                          f"{dst.name} = {s}[(t + {k}) % {self.block} // 16, (t + {k}) % 16]")
                self.emit("barrier()")
        if "warp" in self.feats:
            for v in ints + floats:
                if v.ty in ("i32", "f32") and r.random() < 0.7:
                    f = r.choice(["warp_shuffle_xor", "warp_shuffle"])
                    self.imports.add(f)
                    m = r.randint(1, 3)
                    if f == "warp_shuffle":
                        self.imports.add("lane_id")
                        self.emit(f"{v.name} = warp_shuffle({v.name}, lane_id - lane_id % 4 + {m})")
                    else:
                        self.emit(f"{v.name} = warp_shuffle_xor({v.name}, {m})")
        if "vote" in self.feats:
            self.votes(ints)
        self.py33_barrier_stage(ints)

    def votes(self, ints: list[Var]) -> None:
        """Block votes on any condition and warp votes on a warp-uniform one (block_idx_x): the same on every
        warp width (feature "vote", its own random stream)."""
        r = self.i33
        for v in ints:
            if v.ty != "i32" or r.random() < 0.5:
                continue
            f = r.choice(["barrier_count", "barrier_and", "barrier_or", "warp_any", "warp_all"])
            self.imports.add(f)
            k = r.randint(-20, 20)
            if f.startswith("warp"):
                self.imports.add("block_idx_x")
                self.emit(f"{v.name} = {v.name} % 1000 + i32({f}(block_idx_x > {k % 2}))")
            elif f == "barrier_count":
                self.emit(f"{v.name} = {v.name} % 1000 + barrier_count({v.name} > {k})")
            else:
                self.emit(f"{v.name} = {v.name} % 1000 + i32({f}({v.name} > {k}))")

    def coop_stage(self) -> None:
        """Feature "coop" (features.COOP_FEATURES): an 8-bit tile product every lane of a warp runs alike, at
        the top level; warp w of the grid (32 lanes each: block sizes are multiples of 32) stores its 16x16
        result at `oq[w * 256 ..]`. Drawn from the coop stream only."""
        self.coop_elt = elt = self.qr.choice(["i8", "u8"])
        self.tile_product(self.qr, "q", elt, "i32", 32, [0, 1, -7, 2**31 - 100, -2**31 + 100])

    def coop16_stage(self) -> None:
        """Feature "coop16" (features.COOP16_FEATURES): an f16 16x16x16 tile product into an f32 accumulator,
        warp-uniform at the top level, warp w storing its result at `oh[w * 256 ..]`. Drawn from its own stream."""
        self.types_used.add("f16")
        self.tile_product(self.q16, "h", "f16", "f32", 16, ["0.0", "1.0", "-3.0", "256.0"])

    def coopwg_stage(self) -> None:
        """Feature "coopwg" (features.COOPWG_FEATURES): `cw` staged into core-layout shared arrays a (64xK) and b
        (KxN) by element stores, a barrier, then each warpgroup's fill + A B (k16 steps) into `ow[wg * 64 N ..]`."""
        q = self.qw
        k, nn = q.choice(COOPWG_KS), q.choice(COOPWG_NS)
        self.coopwg_n = nn
        self.types_used.add("f16")
        self.imports.update({"warp_id", "block_idx_x", "block_dim_x", "thread_idx_x", "barrier", "shared"})
        self.emit(f'wsa = shared(f16, (64, {k}), layout="core")')
        self.emit(f'wsb = shared(f16, ({k}, {nn}), layout="core")')
        chunk = 8 if q.random() < 0.5 else 1  # 16-byte copy_async chunks (cp.async on PTX), or element stores
        for arr, cols, size, base in (("wsa", k, 64 * k, 0), ("wsb", nn, k * nn, 64 * k)):
            e, i = self.fresh("we"), self.fresh("wi")
            self.emit(f"for {e} in range({-(-size // (128 * chunk))}):")  # enough steps for one warpgroup
            self.emit(f"    {i} = (thread_idx_x + {e} * block_dim_x) * {chunk}")
            self.emit(f"    if {i} < {size}:")
            self.emit(f"        copy_async({arr}[{i} // {cols}, {i} % {cols}], cw[{base} + {i}], {chunk})" if chunk > 1
                      else f"        {arr}[{i} // {cols}, {i} % {cols}] = cw[{base} + {i}]")
        if chunk > 1:
            self.imports.update({"copy_async", "copy_async_commit", "copy_async_wait"})
            self.emit("copy_async_commit()")
            self.emit("copy_async_wait(0)")
        self.emit("barrier()")
        self.emit("wg = block_idx_x * (block_dim_x // 128) + warp_id // 4")
        self.emit('wfa = coop.fragment("a", f16, 64, 16, scope="warpgroup")')
        self.emit(f'wfb = coop.fragment("b", f16, 16, {nn}, scope="warpgroup")')
        self.emit(f'wfc = coop.fragment("acc", f32, 64, {nn}, scope="warpgroup")')
        self.emit(f"coop.fill(wfc, {q.choice(['0.0', '1.0', '-3.0', '256.0'])})")
        steps = [f"coop.load(wfa, wsa, 0, {{kk}})", f"coop.load(wfb, wsb, {{kk}}, 0)", "coop.mma(wfc, wfa, wfb, wfc)"]
        if k > 16 and q.random() < 0.5:  # a loop over the k16 steps
            kk = self.fresh("wk")
            self.emit(f"for {kk} in range(0, {k}, 16):")
            for line in steps:
                self.emit("    " + line.format(kk=kk))
        else:
            for kk in range(0, k, 16):
                for line in steps:
                    self.emit(line.format(kk=kk))
        self.emit(f"coop.store(wfc, ow, wg * {64 * nn}, {nn})")

    def tile_product(self, q: random.Random, p: str, elt: str, acc: str, k: int, fills: Sequence[int | str]) -> None:
        """Fragments `<p>a` (16xk), `<p>b` (kx16), `<p>c` (acc 16x16) filled with one of `fills`, one or two
        products of a and b read from `c<p>` (a at 2 * 16k * step, b right after it, row- or column-major: one
        layout per 'b' fragment, as CUDA's wmma fragments carry theirs), stored at `o<p>[w<p> * 256 ..]`."""
        self.imports.update({"warp_id", "block_idx_x", "block_dim_x"})
        a, b, c, src = f"{p}a", f"{p}b", f"{p}c", f"c{p}"
        self.emit(f'{a} = coop.fragment("a", {elt}, 16, {k})')
        self.emit(f'{b} = coop.fragment("b", {elt}, {k}, 16)')
        self.emit(f'{c} = coop.fragment("acc", {acc}, 16, 16)')
        self.emit(f"w{p} = block_idx_x * (block_dim_x // 32) + warp_id")
        self.emit(f"coop.fill({c}, {q.choice(fills)})")
        col_major = q.random() < 0.5
        steps = q.choice([1, 2])
        if random.Random(f"sarek-fuzz-coopsh-{self.seed}-{p}").random() < 0.5:
            src = self.stage_shared(p, elt, src, 32 * k * steps)
        for step in range(steps):
            base = 32 * k * step
            self.emit(f"coop.load({a}, {src}, {base}, {k})")
            self.emit(f"coop.load({b}, {src}, {base + 16 * k}, {k}, col_major=True)" if col_major else
                      f"coop.load({b}, {src}, {base + 16 * k}, 16)")
            self.emit(f"coop.mma({c}, {a}, {b}, {c})")
        self.emit(f"coop.store({c}, o{p}, w{p} * 256, 16)")

    def stage_shared(self, p: str, elt: str, src: str, n: int) -> str:
        """The first `n` elements of `src` copied into a block-shared array `<p>s` by the block's threads (32 at
        least), then a barrier: the tile product's fragments load from shared memory (GLSL packs such an array in
        its element type, CUDA/PTX align it for wmma/ldmatrix). Returns the array's name."""
        self.imports.update({"barrier", "shared", "thread_idx_x"})
        arr, e, i = f"{p}s", self.fresh("se"), self.fresh("si")
        self.emit(f"{arr} = shared({elt}, {n})")
        self.emit(f"for {e} in range({-(-n // 32)}):")
        self.emit(f"    {i} = thread_idx_x + {e} * block_dim_x")
        self.emit(f"    if {i} < {n}:")
        self.emit(f"        {arr}[{i}] = {src}[{i}]")
        self.emit("barrier()")
        return arr

    def program(self) -> Program:
        r = self.r
        decls: list[str] = []
        if self.has_rec:
            decls += ["@record", f"class {self.rec}:", "    a: i32", "    b: f32", ""]
        if self.has_var:
            decls += ["@variant", f"class {self.var_t}:", "    A: i32", "    B: (f32, i32)", "    C: ()", ""]
        tables = self.const_tables() if "consts" in self.feats else []
        tables += self.np_tables() if "nptab" in self.feats else []
        helpers: list[str] = []
        if "helpers" in self.feats:
            for h in range(r.randint(1, 3)):
                helpers += self.helper(h)
        body = self.kernel()
        if "views" in self.feats:
            helpers += self.view_helper()
        params = ["ai: Vec[i32]", "af: Vec[f32]"]
        if "i64" in self.feats:
            params.append("al: Vec[i64]")
        if "f64" in self.feats:
            params.append("ad: Vec[f64]")
        if "arrays" in self.feats:
            params.append("a2: Array[i32, 2]")
        if "arrays3" in self.feats:
            params.append("a3: Array[i32, 3]")
        if self.narrow:
            params.append(f"an: Vec[{self.narrow}]")
        params += [f"{x}: Vec[{t}]" for x, t in (("ax", "f32"), ("axd", "f64"), ("ac", "i32"), ("acl", "i64"))
                   if x in self.inputs]
        outs: dict[str, int] = {}
        for vec, vs in self.outputs.items():
            if vs:
                params.append(f"{vec}: Vec[{ {'oi': 'i32', 'ol': 'i64', 'of': 'f32', 'od': 'f64'}[vec]}]")
                outs[vec] = len(vs)
        if self.narrow:
            params.append(f"on: Vec[{self.narrow}]")
        if "coop" in self.feats:
            params += [f"cq: Vec[{self.coop_elt}]", "oq: Vec[i32]"]
            self.types_used.add(self.coop_elt)
        if "coop16" in self.feats:
            params += ["ch: Vec[f16]", "oh: Vec[f32]"]
        if "coopwg" in self.feats:
            params += ["cw: Vec[f16]", "ow: Vec[f32]"]
        params += ["acc: Vec[i32]", *(["accf: Vec[f32]"] if self.uses_accf else [])]
        params += [f"{a}: {t}" for a, t in (("accu", "Vec[u32]"), ("accul", "Vec[u64]"), ("accu2", "Array[u32, 2]"))
                   if a in self.uatomics] + (["gx: Vec[i32]"] if self.uses_gx else []) + ["n: i32"]
        second, streams = self.stream_kernel(outs) if "streams" in self.feats else ([], {})
        gpu = sorted(x for x in self.imports if x not in ("sm", "atomic"))
        base = ("Array", "Vec", "device", "f32", "f64", "i32", "i64", "kernel", "record", "variant", self.narrow)
        extra = sorted(self.types_used - set(base))
        gpu += sorted(self.atomics)
        head = [f'"""sarek fuzz kernel, seed {self.seed} (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""',
                "", *(["import math"] if self.uses_math else []), *(["import numpy as np"] if "nptab" in self.feats else []), *(["import sarek"] if self.uses_sarek else []),
                "from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant"
                + (", coop" if {"coop", "coop16", "coopwg"} & self.feats else "") + (f", {self.narrow}" if self.narrow else "") + "".join(f", {t}" for t in extra),
                "from sarek import math as sm", f"from sarek.gpu import {', '.join(sorted(set(gpu)))}", "", ""]
        lines = head + tables + decls + helpers + ["@kernel", f"def fz{self.seed}({', '.join(params)}):", *body, "", "",
                                          *second]
        case = {"seed": self.seed, "grid": self.grid, "block": self.block, "n": self.n, "outputs": outs,
                "i64": "i64" in self.feats, "f64": "f64" in self.feats, "lowprec": self.uses_lowprec,
                "features": sorted(self.feats), **({"narrow": self.narrow} if self.narrow else {}),
                **({"streams": streams} if streams else {}),
                **({"coop": self.coop_elt} if "coop" in self.feats else {}),
                **({"coop16": True} if "coop16" in self.feats else {}),
                **({"coopwg": self.coopwg_n} if "coopwg" in self.feats else {}), **({"shapes": sorted(self.shapes)} if self.shapes else {})}
        lines.append(f"CASE = {case!r}")
        return Program(self.seed, "\n".join(lines) + "\n", case)


def generate(seed: int, features: frozenset[str] | None = None,
             corners: frozenset[str] | tuple[str, ...] | None = None) -> Program:
    """The kernel of `seed` (deterministic). `features`: exactly these features (default: drawn per seed);
    `corners`: the issue-34 features (CORNER_FEATURES) a drawn kernel may use (default: all)."""
    return Gen(seed, features, corners).program()
