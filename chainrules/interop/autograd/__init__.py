"""The autograd bridge: chainrules' rules as autograd's derivatives (install the ``autograd`` extra).

* :func:`primitive` makes any function with a chainrules rule an autograd primitive whose
  VJP (``grad``, ``make_vjp``) comes from its ``rrule`` and whose JVP (``make_jvp``) comes
  from its ``frule``, looked up by the argument types at call time: SciPy functions
  autograd does not wrap at all (``scipy.linalg.expm``), and your own functions whose rules
  you registered in your own modules. Traced values inside tuple, list and dict arguments
  are differentiated, and keyword arguments holding them are bound to their positions
  (``quad(f, a, b, args=(t,))``; see :mod:`chainrules.interop._arguments`). A bound method
  (``scipy.stats.norm.logpdf``, a frozen distribution's ``logpdf``, ``a.dot``) is a
  function of its arguments, its object a constant. A SciPy result object it returns
  (``solve_ivp``'s ``OdeResult``, ``minimize``'s ``OptimizeResult``) is traced field by
  field (:mod:`~chainrules.interop.autograd.results`).
* :func:`use_chainrules` gives the NumPy/SciPy functions autograd already wraps
  (``autograd.numpy``, ``autograd.scipy``) the rules' derivatives where autograd has none,
  or everywhere (``replace=True``); rules registered later are picked up through the
  core's new-rule hooks.
* Derivatives of derivatives (``grad(grad(f))``, Hessians, a VJP called on traced values)
  use autograd's own derivative of a function where it has one, and raise
  :class:`HigherOrderDerivativeError` only where it has none and the second derivative is
  actually needed (:mod:`~chainrules.interop.autograd.higher_order`).
* :data:`scipy` and :data:`numpy`: every public SciPy/NumPy function that has a rule, as
  a primitive, wrapped when first used (``from chainrules.interop.autograd import scipy as
  asp; asp.linalg.expm(A)``), generated from the rule index as in the JAX and PyTorch
  bridges, with the objects whose methods have rules (``asp.stats.norm.logpdf``).
* :class:`AutogradConfig` is the rule configuration of autograd: rules for higher-order
  functions get it and call back into autograd with ``rrule_via_ad``/``frule_via_ad``.
* ``conversion``: tangents both ways (zeros, thunks, ``Tangent``, structured matrices; a
  ``NotImplementedTangent`` raises :class:`NotImplementedDerivativeError`).
* The errors (:mod:`chainrules.interop.errors`, shared by the bridges) do not subclass
  ``NotImplementedError``, which autograd's ufunc dispatch would swallow.

Importing this package changes nothing in autograd except that structured matrices
(``chainrules.structured``) and SciPy's result objects (``OptimizeResult``, ``RootResults``,
``OdeResult``: :mod:`.results`; tuple outputs with constant parts are given back as plain
tuples) become values autograd can differentiate; call
:func:`use_chainrules` to change autograd's tables. The guide is ``docs/autograd.md``.

Examples
--------
>>> import numpy as np
>>> import autograd, autograd.numpy as anp
>>> from chainrules.interop.autograd import primitive
>>> eigvalsh = primitive(np.linalg.eigvalsh)        # autograd has no derivative of eigvalsh
>>> A = np.array([[2.0, 1.0], [1.0, 3.0]])
>>> autograd.grad(lambda a: anp.sum(eigvalsh(a)))(A).round(12) + 0.0   # the sum of the eigenvalues: the trace
array([[1., 0.],
       [0., 1.]])
"""

from __future__ import annotations

try:
    import autograd as _autograd  # noqa: F401
except ImportError as err:  # pragma: no cover  (the extra is part of the test environment)
    raise ImportError("chainrules.interop.autograd needs autograd: pip install 'chainrules[autograd]'") from err

from chainrules.interop._arguments import argument_label, function_name
from chainrules.interop._namespaces import rule_namespace as _rule_namespace
from chainrules.interop.autograd import results as _results  # noqa: F401  (registers SciPy's result objects)
from chainrules.interop.autograd import structured as _structured  # noqa: F401  (registers the boxes)
from chainrules.interop.autograd.config import AUTOGRAD_CONFIG, AutogradConfig, is_differentiable
from chainrules.interop.autograd.conversion import (
    cotangent_from_autograd,
    cotangent_to_autograd,
    tangent_from_autograd,
    tangent_to_autograd,
    zeros_like_primal,
)
from chainrules.interop.autograd.primitive import jvp_maker, primitive, vjp_maker
from chainrules.interop.autograd.registration import (
    AUTOGRAD_MODULES,
    AutogradRegistration,
    active_registration,
    autograd_primitives_of,
    use_chainrules,
)
from chainrules.interop.autograd.results import UntracedFieldError
from chainrules.interop.errors import (
    HigherOrderDerivativeError,
    HigherOrderNotImplementedError,
    KeywordArgumentError,
    NoRuleError,
    NotImplementedDerivativeError,
)

scipy = _rule_namespace("scipy", primitive, __name__, "autograd")
"""Every public ``scipy`` function with a rule, as an autograd primitive (``scipy.linalg.expm``)."""
numpy = _rule_namespace("numpy", primitive, __name__, "autograd")
"""Every public ``numpy`` function with a rule, as an autograd primitive (``numpy.linalg.eigvalsh``)."""

__all__ = [
    "AUTOGRAD_CONFIG",
    "AUTOGRAD_MODULES",
    "AutogradConfig",
    "AutogradRegistration",
    "HigherOrderDerivativeError",
    "HigherOrderNotImplementedError",
    "KeywordArgumentError",
    "NoRuleError",
    "NotImplementedDerivativeError",
    "UntracedFieldError",
    "active_registration",
    "argument_label",
    "autograd_primitives_of",
    "cotangent_from_autograd",
    "cotangent_to_autograd",
    "function_name",
    "is_differentiable",
    "jvp_maker",
    "numpy",
    "primitive",
    "scipy",
    "tangent_from_autograd",
    "tangent_to_autograd",
    "use_chainrules",
    "vjp_maker",
    "zeros_like_primal",
]
