"""The `sarek` kernel dialect (types, ops, verifiers) and its intrinsic table."""

from sarek.dialect.sarek import *  # noqa: F403
from sarek.dialect.sarek import Sarek as Sarek
