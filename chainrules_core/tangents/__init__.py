"""The tangent kinds: zeros, structural tangents, thunks and not-implemented tangents."""

from chainrules_core.tangents.base import AbstractTangent  # first: the others build on it
from chainrules_core.tangents.not_implemented import NotImplementedTangent, not_implemented
from chainrules_core.tangents.structural import Tangent, backing, canonicalize
from chainrules_core.tangents.thunks import (
    AbstractThunk,
    InplaceableThunk,
    Thunk,
    thunk,
    unthunk,
)
from chainrules_core.tangents.zeros import AbstractZero, NoTangent, ZeroTangent, iszero

__all__ = [
    "AbstractTangent",
    "AbstractThunk",
    "AbstractZero",
    "InplaceableThunk",
    "NoTangent",
    "NotImplementedTangent",
    "Tangent",
    "Thunk",
    "ZeroTangent",
    "backing",
    "canonicalize",
    "iszero",
    "not_implemented",
    "thunk",
    "unthunk",
]
