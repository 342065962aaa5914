"""Front end, cooperative matrices (`from sarek import coop`): fragment declarations and the fill, load, store
and multiply-accumulate calls, checked at the user's line (use, shapes, element types, a fragment read before
anything wrote it); warpgroup fragments (`scope="warpgroup"`) and the core-matrix layout of the 2-D shared
arrays they load from (`shared(T, (R, C), layout="core")`: a 1-D array of R * C elements whose `a[r, c]`
goes through sarek.analysis.core_layout's address function)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, SSAValue

from sarek.analysis.core_layout import LAYOUTS, core_shape_error, core_width
from sarek.analysis.layout import scalar_layout
from sarek.coop import USES, CoopFunction
from sarek.dialect import sarek as s
from sarek.frontend.lower_base import Binding, tname
from sarek.frontend.lower_call import CallLowerer
from sarek.gpu import GpuFunction

#: element types each fragment use may hold
INPUT_TYPES = ("f16", "bf16", "u8", "i8")
ACC_TYPES = ("f32", "f16", "i32")


@dataclass
class Fragment:
    """A fragment the function declared: its use, element type and shape, and whether anything wrote it yet."""

    name: str
    use: str
    element_type: Attribute
    rows: int
    cols: int
    written: bool = False
    warpgroup: bool = False


@dataclass(frozen=True)
class CoreArray:
    """A core-layout shared array: its logical rows and columns, elements per core-matrix row."""

    rows: int
    cols: int
    width: int


def _is_int8(t: Attribute) -> bool:
    return tname(t) in ("u8", "i8")


class CoopLowerer(CallLowerer):
    """Lowers `coop.fragment` assignments and `coop.fill/load/store/mma` calls to the `sarek.coopmat_*` ops."""

    frags: dict[str, Fragment]
    core_arrays: dict[SSAValue, CoreArray]

    # core-layout shared arrays

    def alloc_layout(self, call: ast.Call, fn: GpuFunction) -> str:
        """The `layout=` of `shared(T, shape, layout=...)` ("row" when absent); any other keyword is an error."""
        layout = "row"
        for k in call.keywords:
            if k.arg != "layout" or fn.name != "shared":
                raise self.err(k.value if k.arg else call, f"{fn.name}(T, size) takes no keyword"
                               + (" but layout=\"row\"|\"core\"" if fn.name == "shared" else ""))
            c = k.value.value if isinstance(k.value, ast.Constant) else None
            if c not in LAYOUTS:
                raise self.err(k.value, f"the layout of a shared array is \"row\" or \"core\", got "
                                        f"{ast.unparse(k.value)}")
            layout = str(c)
        return layout

    def core_alloc(self, n: str, call: ast.Call, et: Attribute, dims: list[object]) -> None:
        """`n = shared(T, (R, C), layout="core")`: a 1-D shared array of R * C elements, its shape remembered."""
        lay = scalar_layout(et)
        if len(dims) != 2 or not all(isinstance(d, int) for d in dims) or lay is None:
            raise self.err(call.args[1], "a core-layout shared array is 2-D with constant extents, of scalars")
        rows, cols = int(str(dims[0])), int(str(dims[1]))
        if (why := core_shape_error(rows, cols, lay.size)) is not None:
            raise self.err(call.args[1], why)
        size = self.const(rows * cols, i32, call)
        a = self.v(s.AllocArrayOp(n, [size], s.ArrayType(et, "shared", 1)), call)
        if not hasattr(self, "core_arrays"):
            self.core_arrays = {}
        self.core_arrays[a] = CoreArray(rows, cols, core_width(lay.size))
        self.vars[n] = Binding("arr", a, a.type)
        self.assigned.add(n)

    def core_of(self, arr: SSAValue) -> CoreArray | None:
        return getattr(self, "core_arrays", {}).get(arr)

    def core_index(self, core: CoreArray, r: SSAValue, c: SSAValue, node: ast.AST) -> SSAValue:
        """The element offset of (r, c) (sarek.analysis.core_layout.core_offset; r, c >= 0)."""
        w, shift = core.width, core.width.bit_length() - 1

        def op(kind: str, x: SSAValue, k: int) -> SSAValue:
            return self.v(s.BinOp(kind, x, self.const(k, i32, node)), node)

        tile = self.v(s.BinOp("add", op("mul", op("shr", r, 3), core.cols // w), op("shr", c, shift)), node)
        inner = self.v(s.BinOp("add", op("mul", op("bitand", r, 7), w), op("bitand", c, w - 1)), node)
        return self.v(s.BinOp("add", op("mul", tile, 8 * w), inner), node)

    def indices(self, arr: SSAValue, t: ast.Subscript) -> list[SSAValue]:
        core = self.core_of(arr)
        if core is None:
            return super().indices(arr, t)
        elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        if len(elts) != 2:
            raise self.err(t.slice, f"a core-layout shared array takes 2 indices (a[i, j]), got {len(elts)}")
        r, c = (self.index(e) for e in elts)
        r, c = (x if x.type == i32 else self.v(s.CastOp(x, i32), t) for x in (r, c))
        return [self.core_index(core, r, c, t)]

    def shape_of(self, arr: SSAValue, k: int, node: ast.AST) -> SSAValue:
        core = self.core_of(arr)
        if core is None:
            return super().shape_of(arr, k, node)
        if k not in (0, 1):
            raise self.err(node, f"shape[{k}] is out of range: a core-layout shared array has rank 2")
        return self.const(core.rows if k == 0 else core.cols, i32, node)

    def coop_function(self, node: ast.expr) -> CoopFunction | None:
        ok, fn = self.static(node)
        return fn if ok and isinstance(fn, CoopFunction) else None

    def call(self, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        fn = self.coop_function(node.func)
        if fn is None:
            return super().call(node, hint, statement)
        if fn.name == "fragment":
            raise self.err(node, "coop.fragment() declares a fragment: write 'name = coop.fragment(use, T, rows, cols)'")
        if not statement:
            raise self.err(node, f"coop.{fn.name}() is a statement and has no value")
        getattr(self, f"coop_{fn.name}")(node)
        return None

    # declarations

    def coop_declare(self, target: ast.expr, call: ast.Call) -> None:
        """`name = coop.fragment(use, T, rows, cols)`."""
        if not hasattr(self, "frags"):
            self.frags = {}
        if not isinstance(target, ast.Name):
            raise self.err(target, "a fragment is named by a plain name: 'a = coop.fragment(...)'")
        n = target.id
        if n in self.frags or n in self.info.mutable or (n in self.vars and self.vars[n].kind != "pending"):
            raise self.err(target, f"'{n}' is declared once as a fragment and never reassigned")
        warpgroup = False
        for k in call.keywords:
            c = k.value.value if isinstance(k.value, ast.Constant) else None
            if k.arg != "scope" or c not in ("warp", "warpgroup"):
                raise self.err(k.value if k.arg else call, "coop.fragment() takes one keyword, "
                                                           "scope=\"warp\" (the default) or scope=\"warpgroup\"")
            warpgroup = c == "warpgroup"
        if len(call.args) != 4:
            raise self.err(call, f"coop.fragment(use, T, rows, cols) takes 4 arguments, {len(call.args)} given")
        use_node, t_node, r_node, c_node = call.args
        use = use_node.value if isinstance(use_node, ast.Constant) else None
        if use not in USES:
            raise self.err(use_node, f"the use of a fragment is \"a\", \"b\" or \"acc\", got {ast.unparse(use_node)}")
        ok, pt = self.static(t_node)
        if not ok:
            raise self.err(t_node, "the second argument of coop.fragment() is an element type, e.g. f16")
        et = self.ty(pt, t_node)
        allowed = ACC_TYPES if use == "acc" else INPUT_TYPES
        if tname(et) not in allowed:
            raise self.err(t_node, f"an '{use}' fragment holds {', '.join(allowed)}, not {tname(et)}")
        dims: list[int] = []
        for d in (r_node, c_node):
            c = self.const_eval(d)
            if not isinstance(c, int) or isinstance(c, bool) or c <= 0:
                raise self.err(d, "fragment rows and columns are positive integer constants")
            dims.append(c)
        if warpgroup:
            if tname(et) not in (("f32",) if use == "acc" else ("f16", "bf16")):
                raise self.err(t_node, f"a warpgroup '{use}' fragment holds "
                                       f"{'f32' if use == 'acc' else 'f16 or bf16'}, not {tname(et)}")
            if (why := s.warpgroup_shape_error(use, dims[0], dims[1])) is not None:
                raise self.err(call, why)
        self.emit(s.CoopmatDeclOp(n, use, dims[0], dims[1], et, warpgroup), call)
        self.frags[n] = Fragment(n, use, et, dims[0], dims[1], warpgroup=warpgroup)
        self.vars[n] = Binding("frag", None, None)
        self.assigned.add(n)

    def fragment(self, node: ast.expr, what: str) -> Fragment:
        frags = getattr(self, "frags", {})
        if not isinstance(node, ast.Name) or node.id not in frags:
            raise self.err(node, f"the {what} of this coop call must be a fragment (a name bound by coop.fragment)")
        return frags[node.id]

    def read(self, node: ast.expr, f: Fragment) -> None:
        if not f.written:
            raise self.err(node, f"fragment '{f.name}' is read before anything wrote it (coop.fill, coop.load or "
                                 "coop.mma first)")

    # statements

    def coop_fill(self, node: ast.Call) -> None:
        if node.keywords or len(node.args) != 2:
            raise self.err(node, f"coop.fill(f, x) takes 2 arguments, {len(node.args) + len(node.keywords)} given")
        f = self.fragment(node.args[0], "first argument")
        t = f.element_type
        x = self.expr(node.args[1], t)
        if x.type != t:
            x = self.convert(x, t, node.args[1])
        if x.type != t:
            raise self.err(node.args[1], f"type mismatch: fragment '{f.name}' holds {tname(t)}, the value is "
                                         f"{tname(x.type)}")
        self.emit(s.CoopmatFillOp(f.name, x), node)
        f.written = True

    def coop_load(self, node: ast.Call) -> None:
        f, arr, idx, stride, col = self.coop_memory(node, "load")
        core = self.core_of(arr) is not None
        if f.warpgroup and (f.use == "acc" or not core):
            raise self.err(node.args[1] if f.use != "acc" else node.args[0],
                           "a warpgroup accumulator is filled (coop.fill) or computed (coop.mma), not loaded"
                           if f.use == "acc" else
                           f"a warpgroup '{f.use}' fragment loads from a core-layout shared array (shared(T, (R, C), "
                           "layout=\"core\")): wgmma reads its operands from shared memory in that layout")
        if core and not f.warpgroup:
            raise self.err(node.args[1], "a core-layout shared array feeds warpgroup fragments (scope=\"warpgroup\"); "
                                         "a warp fragment loads from a row-major array")
        self.emit(s.CoopmatLoadOp(f.name, arr, idx, stride, col, core), node)
        f.written = True

    def coop_store(self, node: ast.Call) -> None:
        f, arr, idx, stride, col = self.coop_memory(node, "store")
        if self.core_of(arr) is not None:
            raise self.err(node.args[1], "coop.store() writes a row-major array, not a core-layout one")
        if f.use != "acc":
            raise self.err(node.args[0], f"only an accumulator fragment can be stored; '{f.name}' is an "
                                         f"'{f.use}' fragment")
        self.read(node.args[0], f)
        self.emit(s.CoopmatStoreOp(f.name, arr, idx, stride, col), node)

    def coop_memory(self, node: ast.Call, word: str) -> tuple[Fragment, SSAValue, SSAValue, SSAValue, bool]:
        """The fragment, buffer, flat element index, stride and layout of `coop.load/store(f, buf, x, y)`."""
        col = False
        for k in node.keywords:
            c = self.const_eval(k.value) if k.arg == "col_major" else None
            if k.arg != "col_major" or not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)):
                raise self.err(k.value if k.arg else node, f"coop.{word}() takes one keyword, col_major=True/False")
            col = bool(k.value.value) if c is None else bool(c)
        if len(node.args) != 4:
            raise self.err(node, f"coop.{word}(f, buf, i, j) (or (f, vec, offset, stride)) takes 4 arguments, "
                                 f"{len(node.args)} given")
        f = self.fragment(node.args[0], "first argument")
        arr = self.expr(node.args[1])
        if not isinstance(arr.type, s.VecType | s.ArrayType) or arr.type.ndim > 2:
            raise self.err(node.args[1], f"coop.{word}() needs a Vec, a 1-D or 2-D array, or a 2-D shared array, got "
                                         f"{tname(arr.type)}")
        if arr.type.element_type != f.element_type:
            raise self.err(node.args[1], f"type mismatch: fragment '{f.name}' holds {tname(f.element_type)}, the "
                                         f"buffer {tname(arr.type.element_type)}")
        x, y = (self.expr(a, i32) for a in node.args[2:])
        for v, a in ((x, node.args[2]), (y, node.args[3])):
            if v.type != i32:
                raise self.err(a, f"type mismatch: a coop index or stride is i32, got {tname(v.type)}")
        core = self.core_of(arr)
        if core is not None:
            if col:
                raise self.err(node, f"coop.{word}() of a core-layout array is row-major (no col_major)")
            return f, arr, self.core_index(core, x, y, node), self.const(core.cols, i32, node), col
        if arr.type.ndim == 1:
            return f, arr, x, y, col
        ld = self.shape_of(arr, 1, node.args[1])
        # rows x.., columns y.. of the logical matrix; col_major: the array holds it transposed
        first, second = (y, x) if col else (x, y)
        idx = self.v(s.BinOp("add", self.v(s.BinOp("mul", first, ld), node), second), node)
        return f, arr, idx, ld, col

    def coop_mma(self, node: ast.Call) -> None:
        if node.keywords or len(node.args) != 4:
            raise self.err(node, f"coop.mma(d, a, b, c) takes 4 arguments, {len(node.args) + len(node.keywords)} "
                                 "given")
        names = ("d", "a", "b", "c")
        fd, fa, fb, fc = (self.fragment(a, f"argument {n}") for a, n in zip(node.args, names))
        for f, want, a in ((fd, "acc", node.args[0]), (fa, "a", node.args[1]), (fb, "b", node.args[2]),
                           (fc, "acc", node.args[3])):
            if f.use != want:
                raise self.err(a, f"fragment '{f.name}' is an '{f.use}' fragment; coop.mma(d, a, b, c) takes an "
                                  f"'{want}' fragment here")
        if (fa.cols, fc.rows, fc.cols, fd.rows, fd.cols) != (fb.rows, fa.rows, fb.cols, fa.rows, fb.cols):
            raise self.err(node, f"fragment shapes do not compose: a {fa.rows}x{fa.cols}, b {fb.rows}x{fb.cols}, "
                                 f"c {fc.rows}x{fc.cols}, d {fd.rows}x{fd.cols} (d = a @ b + c needs a MxK, b KxN, "
                                 "c and d MxN)")
        if fa.element_type != fb.element_type:
            raise self.err(node.args[2], f"type mismatch: a holds {tname(fa.element_type)}, b "
                                         f"{tname(fb.element_type)}")
        if fc.element_type != fd.element_type:
            raise self.err(node.args[3], f"type mismatch: c holds {tname(fc.element_type)}, d "
                                         f"{tname(fd.element_type)}")
        acc = ("i32",) if _is_int8(fa.element_type) else ("f32", "f16")
        if tname(fc.element_type) not in acc:
            raise self.err(node.args[3], f"{tname(fa.element_type)} inputs accumulate in {' or '.join(acc)}, not "
                                         f"{tname(fc.element_type)}")
        scopes = {f.warpgroup for f in (fd, fa, fb, fc)}
        if len(scopes) > 1:
            raise self.err(node, "coop.mma() takes four warpgroup fragments or four warp fragments, not a mix")
        if fa.warpgroup and fd is not fc:
            raise self.err(node.args[3], "a warpgroup mma accumulates in place: coop.mma(acc, a, b, acc)")
        for f, a in ((fa, node.args[1]), (fb, node.args[2]), (fc, node.args[3])):
            self.read(a, f)
        self.emit(s.CoopmatMulAddOp(fd.name, fa.name, fb.name, fc.name), node)
        fd.written = True
