"""The errors a bridge raises when an AD framework asks for a derivative the rules cannot give.

They are shared by every bridge (autograd today), so that a user catches the same class
whichever framework drives the rules. None of them subclasses ``NotImplementedError``:
autograd (and NumPy's ``__array_ufunc__`` protocol through it) reads a
``NotImplementedError`` raised while dispatching ``ndarray * box`` as "this operand cannot
handle the call, try the other one", and the message would be replaced by NumPy's
"operand type(s) all returned NotImplemented". These errors are answers, not requests to
try elsewhere.

* :class:`NoRuleError`: no rule covers the argument types (a ``TypeError``, and the
  core's :class:`chainrules_core.NoRuleError`, raised by ``RulesOnlyConfig`` in the same
  situation);
* :class:`NotImplementedDerivativeError`: the rule returned ``not_implemented(...)`` for a
  derivative the framework needs;
* :class:`HigherOrderDerivativeError`: the framework differentiates a rule's derivative
  (a second derivative) and has no derivative of its own to fall back to;
  :class:`HigherOrderNotImplementedError`, its subclass that is also a
  ``NotImplementedError``: the framework has one, and it raised ``NotImplementedError``
  there (autograd's ``rfftn`` of an odd length), so code written for the framework's own
  error keeps catching it;
* :class:`KeywordArgumentError`: a traced value was passed in a keyword argument the
  bridge cannot place among the positional arguments (rules never differentiate keyword
  arguments, and silently treating it as a constant would give a wrong derivative).

Examples
--------
>>> from chainrules.interop.errors import HigherOrderDerivativeError, NoRuleError
>>> issubclass(HigherOrderDerivativeError, NotImplementedError), issubclass(NoRuleError, TypeError)
(False, True)
"""

from __future__ import annotations

from chainrules_core import NoRuleError as _CoreNoRuleError

__all__ = [
    "HigherOrderDerivativeError",
    "HigherOrderNotImplementedError",
    "KeywordArgumentError",
    "NoRuleError",
    "NotImplementedDerivativeError",
]


class NoRuleError(_CoreNoRuleError):
    """The framework needs a derivative of a function for argument types no chainrules rule covers.

    A ``TypeError`` (the argument types are the problem), and a
    :class:`chainrules_core.NoRuleError`.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules.interop.errors import NoRuleError
    >>> issubclass(NoRuleError, chainrules.NoRuleError)
    True
    """


class NotImplementedDerivativeError(RuntimeError):
    """A rule returned ``not_implemented(...)`` for a derivative the framework needs.

    The message names the function, the argument and the rule's own explanation.

    Examples
    --------
    >>> from chainrules.interop.errors import NotImplementedDerivativeError
    >>> issubclass(NotImplementedDerivativeError, NotImplementedError)
    False
    """


class HigherOrderDerivativeError(RuntimeError):
    """The framework differentiates a rule's derivative, and has no derivative of its own to use.

    A rule's pullback and pushforward are NumPy code, which the framework cannot trace, so
    a second derivative through a function (``grad(grad(f))``, a Hessian, forward over
    reverse) needs the framework's own derivative of that function; the bridges fall back
    to it where there is one. The error is raised only when the second derivative is
    actually needed, never for a first-order gradient.

    Examples
    --------
    >>> from chainrules.interop.errors import HigherOrderDerivativeError
    >>> issubclass(HigherOrderDerivativeError, RuntimeError)
    True
    """


class HigherOrderNotImplementedError(HigherOrderDerivativeError, NotImplementedError):
    """A :class:`HigherOrderDerivativeError` where the framework's own derivative raised ``NotImplementedError``.

    The rule gave the first derivative where the framework's own derivative is not
    implemented (autograd's ``rfftn`` of an odd last length); a derivative of that
    derivative needs the framework's, which is not implemented either. The error is a
    ``NotImplementedError`` as the framework's own is, so that code catching the framework's
    error catches it. (The other bridge errors are deliberately not: NumPy turns a
    ``NotImplementedError`` raised in ``ndarray * box`` into "operand type(s) all returned
    NotImplemented". Here the framework's own derivative would have raised the same there.)

    Examples
    --------
    >>> from chainrules.interop.errors import HigherOrderDerivativeError, HigherOrderNotImplementedError
    >>> issubclass(HigherOrderNotImplementedError, (HigherOrderDerivativeError, NotImplementedError))
    True
    """


class KeywordArgumentError(TypeError):
    """A traced value sits in a keyword argument that cannot be bound to a position.

    Rules differentiate positional arguments only; a keyword argument whose name the
    function's signature gives a position (``quad(f, a, b, args=(t,))``) is moved there,
    and any other keyword argument holding a traced value (keyword-only, ``**kwargs``, a
    function whose signature cannot be read) raises this error rather than being treated as
    a constant.

    Examples
    --------
    >>> from chainrules.interop.errors import KeywordArgumentError
    >>> issubclass(KeywordArgumentError, TypeError)
    True
    """
