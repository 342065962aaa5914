"""The runtime's copy-back analysis, kept importable here: it lives in sarek.analysis.writes (an IR analysis,
imported by the interpreters and the PTX lowering without importing the runtime)."""

from sarek.analysis.writes import guarded_indexing as guarded_indexing
from sarek.analysis.writes import written_params as written_params
