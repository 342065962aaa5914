"""Bad @record/@variant definitions (issue 21's bad-input campaign): each must be a located CompileError.
Each case is a separate source text exec'd from this file by tests/unit/test_fuzz_regressions.py."""

SELF_RECORD = '''
from sarek import i32, record


@record
class Node:
    value: i32
    next: "Node"
'''

MUTUAL_RECORDS = '''
from sarek import i32, record


@record
class A:
    b: "B"


@record
class B:
    a: A
'''

STR_FIELD = '''
from sarek import record


@record
class S:
    name: str
'''

VEC_FIELD = '''
from sarek import Vec, f32, record


@record
class V:
    xs: Vec[f32]
'''

NO_CTORS = '''
from sarek import variant


@variant
class Nothing:
    pass
'''

VEC_PAYLOAD = '''
from sarek import Vec, f32, variant


@variant
class P:
    Many: Vec[f32]
'''

STR_PAYLOAD = '''
from sarek import f32, variant


@variant
class Q:
    Pair: (f32, str)
'''
