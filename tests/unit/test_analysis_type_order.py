"""The type-declaration order (sort_type_decls_by_dependency): properties and the seed's edge cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sarek.analysis.type_order import (
    DeclNode,
    TypeDeclCycle,
    UndeclaredTypeRef,
    dependency_order,
    sort_type_decls,
    undeclared_refs,
)
from sarek.analysis.types import referenced_type_names, type_decls
from sarek.dialect.sarek import RecordType, VariantType, VecType
from sarek.tools.ir import parse_module


def node(name: str, *refs: str, kind: str = "record") -> DeclNode:
    return DeclNode(kind, name, tuple((f"f{i}", (r,)) for i, r in enumerate(refs)))


def deps(nodes: list[DeclNode], i: int) -> set[int]:
    return {j for j, m in enumerate(nodes) if j != i and m.name in nodes[i].refs}


@st.composite
def acyclic(draw: st.DrawFn) -> list[DeclNode]:
    """A shuffled DAG of declarations: each may reference earlier-created ones, itself, or share a name."""
    n = draw(st.integers(0, 9))
    names = [f"t{i}" for i in range(n)]
    if n > 1 and draw(st.booleans()):
        names[-1] = names[0]  # two declarations, one mangled name (a record and a variant)
    made: list[DeclNode] = []
    for i, name in enumerate(names):
        # the twin of t0 may reference nothing: everything after t0 may depend on it
        earlier = sorted({m for m in names[:i] if m != name}) if names.index(name) == i else []
        refs = draw(st.lists(st.sampled_from(earlier), max_size=3)) if earlier else []
        if names.count(name) == 1 and draw(st.booleans()):
            refs.append(name)  # a self-reference is not an edge (with a same-named twin it would be one)
        made.append(node(name, *refs, kind=draw(st.sampled_from(["record", "variant"]))))
    return draw(st.permutations(made))


def is_topological(nodes: list[DeclNode], order: list[int]) -> bool:
    pos = {i: k for k, i in enumerate(order)}
    return sorted(order) == list(range(len(nodes))) and all(pos[j] < pos[i] for i in order for j in deps(nodes, i))


@settings(max_examples=150, deadline=None)
@given(acyclic())
def test_order_is_topological(nodes: list[DeclNode]):
    assert is_topological(nodes, dependency_order(nodes))


@settings(max_examples=150, deadline=None)
@given(acyclic())
def test_valid_order_comes_back_unchanged(nodes: list[DeclNode]):
    ordered = [nodes[i] for i in dependency_order(nodes)]
    assert dependency_order(ordered) == list(range(len(ordered)))


@settings(max_examples=150, deadline=None)
@given(acyclic())
def test_ties_break_by_lowest_ready_index(nodes: list[DeclNode]):
    placed: set[int] = set()
    for i in dependency_order(nodes):
        ready = [j for j in range(len(nodes)) if j not in placed and deps(nodes, j) <= placed]
        assert i == min(ready)
        placed.add(i)


def test_blocked_declaration_is_overtaken():
    assert dependency_order([node("a", "c"), node("b"), node("c")]) == [1, 2, 0]


def test_self_edge_is_dropped_and_same_names_are_two_nodes():
    nodes = [node("t", "u", kind="record"), node("u", "u"), node("t", kind="variant")]
    assert dependency_order(nodes) == [1, 0, 2]
    # the record's reference to "t" is an edge to the same-named variant at another position
    assert dependency_order([node("t", "t", kind="record"), node("t", kind="variant")]) == [1, 0]


def test_cycle_between_distinct_declarations_names_every_unplaced_one():
    with pytest.raises(TypeDeclCycle) as e:
        dependency_order([node("ok"), node("a", "b"), node("b", "a", kind="variant"), node("c", "a")])
    assert e.value.names == ["record a", "variant b", "record c"]


def test_completeness_is_checked_first_one_message_per_reference():
    nodes = [node("a", "b"), node("b", "a", "gone"),
             DeclNode("variant", "probe2", (("At2", ("probe_pt",)), ("Also", ("probe_pt", "x"))))]
    assert [m for _, m in undeclared_refs(nodes)] == [
        'record "b"\'s field "f1" references undeclared type "gone"',
        'variant "probe2"\'s constructor "At2" references undeclared type "probe_pt"',
        'variant "probe2"\'s constructor "Also" references undeclared type "probe_pt"',
        'variant "probe2"\'s constructor "Also" references undeclared type "x"',
    ]
    with pytest.raises(UndeclaredTypeRef) as e:
        dependency_order(nodes)
    assert len(e.value.messages) == 4


def test_sort_type_decls_on_ops_uses_mangled_names():
    m = parse_module('builtin.module { sarek.variant @user {U(!sarek.record<@"G.pt">)}\n'
                     'sarek.record @"G.pt" {x : f32} }')
    assert [d.sym_name.data for d in sort_type_decls(type_decls(m))] == ["G.pt", "user"]


def test_referenced_type_names_terminates_on_cycles():
    m = parse_module("builtin.module { sarek.record @a {b : !sarek.variant<@\"M.b\">}\n"
                     "sarek.variant @\"M.b\" {B(!sarek.record<@a>, !sarek.record<@c>), N}\n"
                     "sarek.record @c {x : f32, self : !sarek.record<@c>, g : !sarek.record<@ghost>} }")
    assert referenced_type_names(m, VecType(RecordType("a"))) == ["M_b", "a", "c", "ghost"]
    assert referenced_type_names(m, VariantType("M.b")) == ["M_b", "a", "c", "ghost"]
    assert referenced_type_names(m, RecordType("ghost")) == ["ghost"]


def test_mangle_name_replaces_every_dot_and_nothing_else():
    from sarek.analysis.names import mangle_name

    assert mangle_name("Module.point") == "Module_point"
    assert mangle_name("A.b.c_d") == "A_b_c_d" and mangle_name("plain") == "plain"
    assert mangle_name("A.b_c") == mangle_name("A_b.c")  # not injective, as in Sarek
