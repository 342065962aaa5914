"""Front end, cooperative matrices (`from sarek import coop`): fragment declarations and the fill, load, store
and multiply-accumulate calls, checked at the user's line (use, shapes, element types, a fragment read before
anything wrote it)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, SSAValue

from sarek.coop import USES, CoopFunction
from sarek.dialect import sarek as s
from sarek.frontend.lower_base import Binding, tname
from sarek.frontend.lower_call import CallLowerer

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


def _is_int8(t: Attribute) -> bool:
    return tname(t) in ("u8", "i8")


class CoopLowerer(CallLowerer):
    """Lowers `coop.fragment` assignments and `coop.fill/load/store/mma` calls to the `sarek.coopmat_*` ops."""

    frags: dict[str, Fragment]

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
        if call.keywords or len(call.args) != 4:
            raise self.err(call, f"coop.fragment(use, T, rows, cols) takes 4 arguments, "
                                 f"{len(call.args) + len(call.keywords)} given")
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
        self.emit(s.CoopmatDeclOp(n, use, dims[0], dims[1], et), call)
        self.frags[n] = Fragment(n, use, et, dims[0], dims[1])
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
        self.emit(s.CoopmatLoadOp(f.name, arr, idx, stride, col), node)
        f.written = True

    def coop_store(self, node: ast.Call) -> None:
        f, arr, idx, stride, col = self.coop_memory(node, "store")
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
        for f, a in ((fa, node.args[1]), (fb, node.args[2]), (fc, node.args[3])):
            self.read(a, f)
        self.emit(s.CoopmatMulAddOp(fd.name, fa.name, fb.name, fc.name), node)
        fd.written = True
