"""Rules of random sampling: ``np.random.*`` and the methods of ``np.random.Generator``.

``np.random.normal(...)`` is the method ``RandomState.normal`` of NumPy's global
``RandomState``; the rules are registered on the methods of ``np.random.RandomState`` and
of ``np.random.Generator``, so ``rrule(np.random.normal, ...)``, ``rrule(rs.normal, ...)``
and ``rrule(rng.normal, ...)`` all find them.

What is differentiated: the pathwise derivative
------------------------------------------------
A draw is a deterministic function of the generator's state and of the distribution's
parameters. With the state held fixed, the rules differentiate the draw with respect to
the parameters: the *pathwise* (reparameterisation) derivative of Kingma & Welling (2014)
and of PyTorch's ``rsample``. It is an unbiased estimator of the gradient of an expectation,
``d/dθ E[f(y)] = E[f'(y) dy/dθ]``, when the draw is a continuous function of ``θ``, which
is why it is given only where NumPy's algorithm is one (the sources are NumPy's
``numpy/random/src/distributions/distributions.c`` and ``legacy/legacy-distributions.c``;
``z``, ``u``, ``e`` are the standard normal, uniform and exponential numbers drawn):

+---------------------------------------------+---------------------------------------------------------------------+
| sampler (parameters)                        | draw, and its derivatives                                           |
+=============================================+=====================================================================+
| ``normal``, ``laplace``, ``gumbel``,        | ``y = loc + scale z``: ``1`` and ``z``                              |
| ``logistic`` (``loc``, ``scale``)           |                                                                     |
+---------------------------------------------+---------------------------------------------------------------------+
| ``uniform`` (``low``, ``high``)             | ``y = low + (high - low) u``: ``1 - u`` and ``u``                   |
+---------------------------------------------+---------------------------------------------------------------------+
| ``lognormal`` (``mean``, ``sigma``)         | ``y = exp(mean + sigma z)``: ``y`` and ``y z``                      |
+---------------------------------------------+---------------------------------------------------------------------+
| ``exponential``, ``rayleigh`` (``scale``)   | ``y = scale e``: ``e``                                              |
+---------------------------------------------+---------------------------------------------------------------------+
| ``gamma`` (``shape``, ``scale``)            | ``y = scale g(shape)``: ``g`` for ``scale``; ``shape``: implicit    |
+---------------------------------------------+---------------------------------------------------------------------+
| ``pareto`` (``a``)                          | ``y = expm1(e / a)``: ``-(1 + y) log1p(y) / a``                     |
+---------------------------------------------+---------------------------------------------------------------------+
| ``weibull`` (``a``)                         | ``y = e ** (1 / a)``: ``-y log(y) / a``                             |
+---------------------------------------------+---------------------------------------------------------------------+
| ``power`` (``a``)                           | ``y = (1 - exp(-e)) ** (1 / a)``: ``-y log(y) / a``                 |
+---------------------------------------------+---------------------------------------------------------------------+
| ``triangular`` (``left``, ``mode``,         | the inverse CDF at ``u``: with ``A = mode - left``, ``B = right     |
| ``right``)                                  | - left``, ``C = right - mode``, ``s = y - left``, ``t = right -     |
|                                             | y``: ``1 - s (A + B) / (2AB)``, ``s / 2A``, ``s / 2B`` where        |
|                                             | ``y <= mode``; ``t / 2B``, ``t / 2C``, ``1 - t (B + C) / (2BC)``    |
|                                             | where ``y > mode``                                                  |
+---------------------------------------------+---------------------------------------------------------------------+
| ``vonmises`` (``mu``, ``kappa``)            | ``y = wrap(mu + w(kappa))``: ``1`` for ``mu`` (``0`` for ``kappa <  |
|                                             | 1e-8``, where NumPy draws a uniform angle without ``mu``);          |
|                                             | ``kappa``: implicit                                                 |
+---------------------------------------------+---------------------------------------------------------------------+
| ``noncentral_chisquare`` (``df``, ``nonc``) | ``y = X + (z + sqrt(nonc)) ** 2`` for ``df > 1``: ``1 + z /         |
|                                             | sqrt(nonc)``; ``df``: implicit, through ``X``; for ``df <= 1`` both |
|                                             | implicit, through the noncentral chi-square CDF                     |
+---------------------------------------------+---------------------------------------------------------------------+
| ``noncentral_f`` (``dfnum``, ``dfden``,     | ``y = c (X + (z + sqrt(nonc)) ** 2)`` for ``dfnum > 1``: the same,  |
| ``nonc``)                                   | times ``c``; the dfs: implicit, through ``X`` and ``D``; for        |
|                                             | ``dfnum <= 1`` all three implicit, through the noncentral F CDF     |
+---------------------------------------------+---------------------------------------------------------------------+
| ``standard_gamma``, ``chisquare``,          | implicit (below), by the incomplete gamma and beta functions' shape |
| ``beta``, ``f``, ``standard_t``, ``wald``,  | derivatives; ``dirichlet`` by stick breaking; ``wald`` by its CDF   |
| ``dirichlet`` (every parameter)             | in closed form                                                      |
+---------------------------------------------+---------------------------------------------------------------------+
| ``multivariate_normal`` (``mean``, ``cov``) | ``y = mean + z F^T``: the identity for ``mean``; ``cov`` through    |
|                                             | the factor ``F`` NumPy computes (see below)                         |
+---------------------------------------------+---------------------------------------------------------------------+
| ``choice`` (``a``), ``permutation`` (``x``) | a gather of ``a``/``x`` at the drawn positions                      |
+---------------------------------------------+---------------------------------------------------------------------+

The standard numbers (``z``, ``u``, ``e``, ``g``) are not recovered from ``y`` (``(y - loc) /
scale`` is ``0/0`` at ``scale = 0`` and loses digits when ``|loc| >> scale``): the pullback
draws them again from a copy of the generator in the state it had before the draw (NumPy
consumes the same random bits whatever the location and scale). For ``nonc`` the draw is a
quadratic in ``t = sqrt(nonc)`` with the random numbers held fixed (NumPy draws ``X``, a
chi-square with ``df - 1`` degrees of freedom, and ``z`` first, then adds ``t``; ``noncentral_f``
then divides by a chi-square ``D``): ``y(t) = c (X + (z + t) ** 2)``, ``c = dfden / (D dfnum)``
(1 for ``noncentral_chisquare``), so two more draws at ``t = s + h`` and ``s + 2h`` (``s =
sqrt(nonc)``, ``h = max(s, 1)``) give ``c``, ``n = z + s`` and ``X`` exactly, and ``dy/dnonc =
c n / s``.

``multivariate_normal``: NumPy draws ``z`` first and multiplies by a factor of ``cov``: the
SVD's ``u sqrt(s)`` (``Generator``, ``method='svd'``, the default), ``vh.T sqrt(s)``
(``RandomState``), ``u sqrt(|s|)`` of ``eigh`` (``method='eigh'``) or the Cholesky factor
(``method='cholesky'``). The cotangent of ``cov`` goes through the rules of
``np.linalg.svd``, ``eigh`` or ``cholesky`` of this library (the derivative of the factor
NumPy uses, signs of the singular vectors as LAPACK returns them). Where two singular values
(eigenvalues) of ``cov`` coincide, or one is zero, NumPy's factor -- so the draw -- is not a
differentiable function of ``cov`` (``cov = I`` is such a point): the cotangent of ``cov`` is
then ``not_implemented``, with the workaround: ``method='cholesky'``, smooth at every
positive definite ``cov``.

Shape parameters: implicit reparameterisation
---------------------------------------------
NumPy draws gamma variates by rejection (Marsaglia & Tsang 2000), and beta, chi-square, F,
Student t and Dirichlet variates from them; von Mises variates by rejection too (Best & Fisher
1979); ``wald`` keeps one of two roots depending on a uniform number (Michael, Schucany & Haas
1976). At a fixed seed these draws **jump** where an
accept/reject decision (or the choice of root) flips with the parameter, and between the jumps
their derivative is biased as a gradient estimator (Naesseth et al. 2017). The rules therefore
do **not** differentiate NumPy's algorithm for these parameters. They give the implicit
reparameterisation gradient (Figurnov, Mohamed & Mnih 2018): the draw ``y`` is read as the
quantile of its own probability level, ``y = F^-1(u; theta)`` with ``u = F(y; theta)`` held
fixed, so ``dy/dtheta = -(dF/dtheta)(y) / f(y)``: the derivative along the inverse-CDF path
through the same draw, an unbiased estimator of ``d/dtheta E[g(y)]`` because ``u`` is uniform
whatever ``theta``. For the gamma family (``gamma``, ``standard_gamma``, ``chisquare``) it is
the derivative PyTorch's ``rsample`` and TensorFlow Probability compute, draw for draw.
Where those frameworks build a draw from gamma variates (beta, F, Student t, Dirichlet) and
reparameterise the gammas, they get another unbiased estimator: the same expectation, other
values per draw. Finite differences of NumPy's draw at a fixed seed do not reproduce it (they follow
the rejection sampler); the tests compare it with finite differences of the inverse CDF at
the draw's probability levels.

* ``standard_gamma``, ``gamma``'s ``shape`` (at the standard draw ``g = y / scale``, drawn
  again), ``chisquare``: ``dF/da`` of ``P(a, x)`` by the incomplete gamma function's shape
  derivative (Moore 1982); ``beta``: ``dI_x/da``, ``dI_x/db`` (Boik & Robison-Cox 1998), both
  through :func:`chainrules.rulesets.stats.sampling.implicit_shape_partials`.
* ``f``: ``w = dfnum y / (dfnum y + dfden)`` is ``Beta(dfnum/2, dfden/2)`` at the same level;
  ``standard_t``: ``s = t^2 / (df + t^2)`` is ``Beta(1/2, df/2)`` (the level of ``|t|``, the
  sign kept); ``y`` follows from ``w`` (``s``) by the chain rule.
* ``dirichlet``: stick breaking, ``v_i = x_i / (1 - x_1 - ... - x_(i-1))`` independent
  ``Beta(alpha_i, alpha_(i+1) + ... + alpha_K)``, each held at its own level (the
  computation of ``scipy.stats.dirichlet.rvs``'s rules, shared).
* The noncentral samplers' ``df`` (``dfnum``, ``dfden``): ``X`` (and ``D``) recovered as
  above, each at its own chi-square level, ``z`` held fixed; at ``nonc = 0`` NumPy draws a
  central chi-square (F) and the rules are ``chisquare``'s (``f``'s).
* ``noncentral_chisquare`` with ``df <= 1``: NumPy draws ``chisquare(df + 2i)`` with ``i``
  Poisson, which the draw does not reveal (and which is constant in ``nonc`` between jumps);
  both ``df`` and ``nonc`` go through the CDF ``sum_i w_i P(df/2 + i, y/2)``
  (:func:`_poisson_mixture_partials`); ``noncentral_f`` with ``dfnum <= 1`` likewise, through
  ``sum_i w_i I_v(dfnum/2 + i, dfden/2)``, ``v = dfnum y / (dfnum y + dfden)``
  (:func:`_noncentral_f_mixture_partials`).
* ``wald`` (``mean``, ``scale``): the inverse Gaussian CDF ``Phi(a) + e^(2 scale/mean)
  Phi(-b)`` is in closed form (Chhikara & Folks 1989), and ``dy/dmean = (2 scale / mean^2)
  E / f``, ``dy/dscale = y / scale - (2 / mean) E / f`` with ``E = e^(2 scale/mean) Phi(-b)``.
* ``vonmises``' ``kappa``: ``dw/dkappa = sign(w) int_|w|^pi (cos t - I_1/I_0) e^(kappa (cos t -
  cos w)) dt`` for the offset ``w = y - mu`` (wrapped), by Gauss-Legendre quadrature
  (:func:`_vonmises_kappa`); for ``kappa > 1e6`` ``Generator`` draws a wrapped normal
  approximation (smooth in ``kappa``; the von Mises derivative at the draw matches its own to
  ``O(1/kappa)``).

An expansion of the incomplete gamma (beta) shape derivative that does not converge within
its term budget (very large shapes) gives a ``not_implemented`` cotangent, not a loose number.

What is not differentiated
--------------------------
* ``nonc`` at ``nonc = 0``: the draw moves like ``sqrt(nonc)``: ``not_implemented``.
* A Poisson series needing more than 20000 terms (``nonc`` beyond about 3e4 with ``df <= 1``):
  ``not_implemented``.
* Discrete draws (``binomial``, ``poisson``, ``integers``...) are integers, and draws with no
  parameters (``standard_normal``, ``random``...) depend on nothing differentiable: those
  samplers are declared non-differentiable, as are the state functions (``seed``,
  ``get_state``...). ``shuffle`` works in place: its rule raises.

Keyword arguments are never differentiated, but their values are used: in
``normal(1.0, scale=2.0)`` only ``loc`` gets a cotangent, computed with ``scale = 2``.

References: D. P. Kingma and M. Welling, Auto-encoding variational Bayes, ICLR 2014; G.
Marsaglia and W. W. Tsang, ACM TOMS 26 (2000) 363-372; C. A. Naesseth et al., Reparameterization
gradients through acceptance-rejection sampling algorithms, AISTATS 2017; M. Figurnov, S.
Mohamed and A. Mnih, Implicit reparameterization gradients, NeurIPS 2018; J. R. Michael, W. R.
Schucany and R. W. Haas, The American Statistician 30 (1976) 88-90; R. S. Chhikara and J. L.
Folks, The Inverse Gaussian Distribution, Dekker 1989;
R. J. Moore, Algorithm AS 187, Applied Statistics 31 (1982) 330; R. J. Boik and J. F.
Robison-Cox, Derivatives of the incomplete beta function, J. Statistical Software 3 (1998);
D. J. Best and N. I. Fisher, Applied Statistics 28 (1979) 152-157.

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.random.default_rng(1).beta, 2.0, 3.0)
>>> _, _, da, db = pullback(1.0)
>>> u, h = st.beta.cdf(y, 2.0, 3.0), 1e-6                      # the draw's probability level
>>> fd = (st.beta.ppf(u, 2.0 + h, 3.0) - st.beta.ppf(u, 2.0 - h, 3.0)) / (2 * h)
>>> bool(np.isclose(unthunk(da), fd, rtol=1e-6))                # dy/da along the inverse CDF
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets._samples import spd
from chainrules.rulesets.arrays._linear_maps import NO, ZERO, cast_like, output_tangent, tangent_array, zero_result
from chainrules.rulesets.arrays._sample_arrays import fixed_state_generators
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED
from chainrules.rulesets.arrays.mutation import InPlaceOperationError
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    non_differentiable,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
    unthunk,
)

Pullback = Callable[[Any], tuple[Any, ...]]
SOURCES = (np.random.RandomState, np.random.Generator)
"""The classes whose sampling methods have rules."""


# ---- the state before a draw, and draws again from it ------------------------------------------------------
class _Snapshot:
    """The state of ``source`` before a draw; :meth:`twin` is a generator in that state (``source`` is untouched)."""

    __slots__ = ("source", "state")

    def __init__(self, source: Any) -> None:
        self.source = source
        if isinstance(source, np.random.Generator):
            self.state = source.bit_generator.state
        else:
            self.state = source.get_state(legacy=False)

    def twin(self) -> Any:
        twin = copy.deepcopy(self.source)
        if isinstance(twin, np.random.Generator):
            twin.bit_generator.state = self.state
        else:
            twin.set_state(self.state)
        return twin


class _Draw:
    """A draw ``y = method(source, *params)``, its parameters and the replays the derivatives need."""

    def __init__(self, snapshot: _Snapshot, name: str, y: Any, values: tuple[Any, ...]) -> None:
        self.snapshot = snapshot
        self.name = name
        self.y = np.asarray(y, dtype=np.float64)
        self.values = tuple(np.asarray(v, dtype=np.float64) for v in values)
        self._replays: dict[tuple[Any, ...], np.ndarray] = {}
        self._memo: dict[str, Any] = {}

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per draw (for partials computed together, such as ``beta``'s two)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def replay(self, *params: Any) -> np.ndarray:
        """The same draw with other parameters (from the state before the draw), as an array of ``y``'s shape."""
        key = tuple(np.asarray(p).tobytes() + bytes(str(np.shape(p)), "ascii") for p in params)
        if key not in self._replays:
            size = None if self.y.ndim == 0 else self.y.shape
            method = getattr(self.snapshot.twin(), self.name)
            self._replays[key] = np.asarray(method(*params, size=size), dtype=np.float64)
        return self._replays[key]


# ---- the derivatives of each sampler -----------------------------------------------------------------------
_NONC_ZERO = ("nonc = 0: NumPy draws a central chi-square there, and the noncentral draw moves like sqrt(nonc): "
              "no derivative at 0")
_WEIBULL_0 = "a = 0: NumPy returns 0 there, and the draw jumps"


def _location_scale(draw: _Draw, k: int) -> Any:
    return np.ones_like(draw.y) if k == 0 else draw.replay(0.0, 1.0)


def _uniform(draw: _Draw, k: int) -> Any:
    u = draw.replay(0.0, 1.0)
    return 1 - u if k == 0 else u


def _lognormal(draw: _Draw, k: int) -> Any:
    return draw.y if k == 0 else draw.y * np.log(draw.replay(0.0, 1.0))


def _scale(draw: _Draw, k: int) -> Any:
    return draw.replay(1.0)


def _gamma(draw: _Draw, k: int) -> Any:
    return draw.replay(draw.values[0], 1.0)


def _pareto(draw: _Draw, k: int) -> Any:
    (a,) = draw.values
    return -(1 + draw.y) * np.log1p(draw.y) / a


def _power_law(draw: _Draw, k: int) -> Any:
    """``weibull`` and ``power``: ``y = b ** (1 / a)`` with ``b`` drawn, so ``dy/da = -y log(y) / a``."""
    (a,) = draw.values
    y = draw.y
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(y > 0, -y * np.log(np.where(y > 0, y, 1.0)) / a, 0.0)


def _triangular(draw: _Draw, k: int) -> Any:
    left, mode, right = np.broadcast_arrays(*draw.values, draw.y)[:3]
    y = draw.y
    a, b, c = mode - left, right - left, right - mode
    s, t = y - left, right - y
    lower = y <= mode
    with np.errstate(divide="ignore", invalid="ignore"):
        if k == 0:
            low, high = 1 - s * (a + b) / (2 * a * b), t / (2 * b)
        elif k == 1:
            low, high = s / (2 * a), t / (2 * c)
        else:
            low, high = s / (2 * b), 1 - t * (b + c) / (2 * b * c)
    # a degenerate side (mode == left or mode == right) is never drawn from but for u == ratio exactly
    return np.where(lower, np.where(a > 0, low, 0.0), np.where(c > 0, high, 0.0))


def _vonmises_mu(draw: _Draw, k: int) -> Any:
    """``y = wrap(mu + w)``: 1; but NumPy draws a uniform angle without ``mu`` for ``kappa < 1e-8``: 0 there."""
    kappa = draw.values[1]
    return np.broadcast_to(np.where(kappa < 1e-8, 0.0, 1.0), draw.y.shape)


# ---- shape parameters: implicit reparameterisation --------------------------------------------------------
def _implicit(name: str, z: Any, shapes: tuple[Any, ...]) -> tuple[Any, ...]:
    """``dz/dtheta = -(dF/dtheta)(z) / f(z)`` of ``scipy.stats`` ``gamma``, ``chi2`` or ``beta``, one per shape.

    The partials of :mod:`chainrules.rulesets.stats.sampling` (imported here, with SciPy's
    ``stats``, on the first shape derivative only).
    """
    import scipy.stats

    from chainrules.rulesets.stats.sampling import implicit_shape_partials

    return implicit_shape_partials(getattr(scipy.stats, name), np.asarray(z, dtype=np.float64),
                                   tuple(np.asarray(v, dtype=np.float64) for v in shapes))


def _times(partial: Any, factor: Any) -> Any:
    """``factor * partial``, a ``NotImplementedTangent`` partial (an expansion that did not converge) as it is."""
    return partial if isinstance(partial, NotImplementedTangent) else factor * partial


def _standard_gamma_shape(draw: _Draw, k: int) -> Any:
    return _implicit("gamma", draw.y, draw.values)[0]


def _gamma_shape(draw: _Draw, k: int) -> Any:
    """``y = scale g``: ``scale dg/dshape`` at the standard draw ``g`` (drawn again: ``y / scale`` is 0/0 at 0)."""
    shape, scale = draw.values
    return _times(_implicit("gamma", draw.replay(shape, 1.0), (shape,))[0], scale)


def _chisquare_df(draw: _Draw, k: int) -> Any:
    return _implicit("chi2", draw.y, draw.values)[0]


def _beta_shape(draw: _Draw, k: int) -> Any:
    return draw.memo("beta", lambda: _implicit("beta", draw.y, draw.values))[k]


def _f_partials(y: np.ndarray, dfnum: np.ndarray, dfden: np.ndarray) -> tuple[Any, Any]:
    """``d y / d dfnum``, ``d y / d dfden`` of an F draw ``y``, along the path that keeps its CDF level fixed.

    ``w = dfnum y / (dfnum y + dfden)`` is ``Beta(dfnum/2, dfden/2)`` and the F CDF at ``y`` is
    ``I_w(dfnum/2, dfden/2)`` (A&S 26.6.2): at a fixed level ``w`` moves by half its implicit
    beta partials, and ``y = dfden w / (dfnum (1 - w))`` (with ``1 - w = dfden / (dfnum y +
    dfden)``, no cancellation) gives ``dy/ddfnum = -y/dfnum + y_w dw/ddfnum`` and ``dy/ddfden =
    y/dfden + y_w dw/ddfden``, ``y_w = (dfnum y + dfden)^2 / (dfnum dfden)``.
    """
    total = dfnum * y + dfden
    dw = _implicit("beta", dfnum * y / total, (dfnum / 2, dfden / 2))
    if isinstance(dw[0], NotImplementedTangent):
        return dw[0], dw[0]
    y_w = total ** 2 / (dfnum * dfden)
    return -y / dfnum + 0.5 * y_w * dw[0], y / dfden + 0.5 * y_w * dw[1]


def _f_df(draw: _Draw, k: int) -> Any:
    return draw.memo("f", lambda: _f_partials(draw.y, *draw.values))[k]


def _standard_t_df(draw: _Draw, k: int) -> Any:
    """``dt/ddf`` along the path that keeps the CDF level fixed (the level of ``|t|``, ``t``'s sign kept).

    ``s = t^2 / (df + t^2)`` is ``Beta(1/2, df/2)`` and ``F(t) = 1/2 + sign(t) I_s(1/2, df/2) / 2``
    (A&S 26.7.1): at a fixed level ``ds/ddf`` is half the implicit beta partial in ``b``,
    and ``t^2 = df s / (1 - s)`` gives ``dt/ddf = t / (2 df) + (df + t^2)^2 ds/ddf / (2 t df)``
    (0 at ``t = 0``, the median of every ``df``).
    """
    (df,) = draw.values
    t = draw.y
    square = t * t
    ds = _implicit("beta", square / (df + square), (np.full_like(df, 0.5), df / 2))[1]
    if isinstance(ds, NotImplementedTangent):
        return ds
    with np.errstate(divide="ignore", invalid="ignore"):
        moved = t / (2 * df) + (df + square) ** 2 * (0.5 * ds) / (2 * t * df)
    return np.where(t == 0, 0.0, moved)


def _wald_partials(y: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``dy/dmean``, ``dy/dscale`` of an inverse Gaussian draw along the path that keeps its CDF level fixed.

    With ``a, b = sqrt(scale / y) (y / mean -+ 1)`` the CDF is ``Phi(a) + e^(2 scale/mean) Phi(-b)``
    (Chhikara & Folks 1989, chapter 2) and the density ``sqrt(scale / y^3) phi(a)``. Since
    ``phi(a) = e^(2 scale/mean) phi(b)`` the normal densities cancel in ``dF/dmean``:
    ``dF/dmean = -(2 scale / mean^2) E`` and ``dF/dscale = -phi(a) / sqrt(scale y) + (2 / mean) E``
    with ``E = e^(2 scale/mean) Phi(-b)``, computed as ``exp(2 scale/mean + log_ndtr(-b))`` (no
    overflow). Hence ``dy/dmean = (2 scale / mean^2) E / f`` and ``dy/dscale = y / scale - (2 / mean)
    E / f``; they satisfy ``mean dy/dmean + scale dy/dscale = y``, the scaling ``y(t mean, t scale) =
    t y``.
    """
    from scipy.special import log_ndtr

    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(scale / y)
        a, b = root * (y / mean - 1), root * (y / mean + 1)
        log_density = 0.5 * np.log(scale / (2 * np.pi * y ** 3)) - a * a / 2
        ratio = np.exp(2 * scale / mean + log_ndtr(-b) - log_density)  # E / f
        return 2 * scale / mean ** 2 * ratio, y / scale - 2 / mean * ratio


def _wald(draw: _Draw, k: int) -> Any:
    return draw.memo("wald", lambda: _wald_partials(draw.y, *draw.values))[k]


_VONMISES_NODES, _VONMISES_WEIGHTS = np.polynomial.legendre.leggauss(64)
_VONMISES_DECAY = 40.0
"""The integrand of :func:`_vonmises_kappa` is cut where ``e^(kappa (cos t - cos x))`` falls below ``e^-40``."""


def _vonmises_kappa(draw: _Draw, k: int) -> Any:
    """``dy/dkappa`` of a von Mises draw along the path that keeps its CDF level fixed.

    With ``w = y - mu`` wrapped to ``[-pi, pi]`` and the density ``f(t) = e^(kappa cos t) /
    (2 pi I_0(kappa))``, ``dF/dkappa (x) = int_-pi^x (cos t - A) f(t) dt`` with ``A = I_1 / I_0``
    (the derivative of ``log I_0``; DLMF 10.29.3); it is odd in ``x`` and vanishes at ``x = pi``
    (``f`` integrates to 1 for every ``kappa``). So for ``x = |w|``
    ``dw/dkappa = sign(w) int_x^pi (cos t - A) e^(kappa (cos t - cos x)) dt`` (the normalisation
    cancels; the exponent is ``<= 0``, nothing overflows), computed by 64-point Gauss-Legendre
    quadrature over ``[x, t_max]``, ``t_max`` where the exponent reaches -40 (or ``pi``), with
    ``cos t - cos x = 2 sin((t + x)/2) sin((t - x)/2)`` and ``cos t - A = (1 - A) - 2
    sin^2(t/2)`` against cancellation (``1 - A`` by its asymptotic series beyond ``kappa = 1e5``,
    where SciPy's ``ive`` would lose digits and, from ``1e10``, return NaN). ``mu`` enters only
    by the shift: the level of ``w`` is the level of the draw.
    """
    from scipy.special import ive

    mu, kappa = draw.values
    y = draw.y
    kappa = np.broadcast_to(kappa, y.shape).astype(np.float64)
    w = np.remainder(y - mu + np.pi, 2 * np.pi) - np.pi  # the draw's offset from mu, in [-pi, pi)
    x = np.abs(w)[..., None]
    kap = kappa[..., None]
    large = kappa > 1e5  # 1 - I_1/I_0 by its asymptotic series (A&S 9.7.1; relative error below 1e-15 there)
    with np.errstate(divide="ignore", invalid="ignore"):
        i0, i1 = ive(0, np.where(large, 1.0, kappa)), ive(1, np.where(large, 1.0, kappa))
        one_minus_a = np.where(large, 1 / (2 * kappa) + 1 / (8 * kappa ** 2) + 1 / (8 * kappa ** 3), (i0 - i1) / i0)
    one_minus_a = one_minus_a[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        reach = np.arccos(np.clip(np.cos(x) - _VONMISES_DECAY / kap, -1.0, 1.0))
    top = np.where(kap > 0, np.maximum(reach, x), np.pi)
    half = (top - x) / 2
    t = x + half * (1 + _VONMISES_NODES)
    drop = 2 * np.sin((t + x) / 2) * np.sin((t - x) / 2)  # cos x - cos t >= 0
    integrand = (one_minus_a - 2 * np.sin(t / 2) ** 2) * np.exp(-kap * drop)
    return np.sign(w) * np.sum(integrand * _VONMISES_WEIGHTS, axis=-1) * half[..., 0]


_MIXTURE_TERMS = 20_000
"""The Poisson series of :func:`_poisson_mixture_partials` sums at most this many terms (``nonc`` up to about 3e4)."""


def _poisson_log_weights(nonc: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray] | NotImplementedTangent:
    """``(i, log w_i)``, ``w_i = e^-lam lam^i / i!``, ``lam = nonc / 2``, over the ``i`` that matter (a last axis)."""
    from scipy.special import gammaln

    lam = (nonc / 2)[..., None]
    terms = int(np.max(lam + 12 * np.sqrt(lam) + 40))
    if terms > _MIXTURE_TERMS:
        return not_implemented(f"nonc = {float(np.max(nonc)):g} needs more than {_MIXTURE_TERMS} terms of the Poisson "
                               f"series of the {what} CDF")
    i = np.arange(terms)
    with np.errstate(divide="ignore"):
        return i, np.where(lam > 0, i * np.log(lam), np.where(i == 0, 0.0, -np.inf)) - gammaln(i + 1) - lam


def _significant(log_terms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The largest term (kept as an axis), the terms scaled by it, and which are within ``e^-50`` of it.

    The derivatives in the shape parameters (``dP/da``, ``dI/da``, ``dI/db``) are summed over those
    only: they are the density times factors polynomial in ``x``, ``a`` and their logarithms (in
    the tails ``P ~ x p / a``, so ``dP/da ~ P (log x - psi(a + 1))``), and the Poisson weights and
    the densities both peak, so few terms matter.
    """
    top = np.max(log_terms, axis=-1, keepdims=True)
    return top, np.exp(log_terms - top), log_terms - top > -50


def _poisson_mixture_partials(y: np.ndarray, df: np.ndarray, nonc: np.ndarray) -> tuple[Any, Any]:
    """``dy/ddf``, ``dy/dnonc`` of a noncentral chi-square draw along the path that keeps its CDF level fixed.

    The CDF is the Poisson mixture ``F = sum_i w_i P(a_i, x)`` with ``w_i = e^-lam lam^i / i!``,
    ``lam = nonc / 2``, ``a_i = df / 2 + i``, ``x = y / 2`` (Johnson, Kotz & Balakrishnan,
    *Continuous Univariate Distributions* 2, chapter 29), so ``f = (1/2) sum_i w_i p_i`` with the
    gamma densities ``p_i = x^(a_i - 1) e^-x / Gamma(a_i)``, ``dF/ddf = (1/2) sum_i w_i dP/da (a_i,
    x)`` and, since ``dw_i/dlam = w_(i-1) - w_i`` and ``P(a, x) - P(a + 1, x) = x p(a, x) / a``
    (DLMF 8.8.5), ``dF/dnonc = -(1/2) sum_i w_i x p_i / a_i`` (no difference of CDFs). Weights and
    densities are combined in log space.
    """
    from chainrules.rulesets.special.incomplete_gamma import gammainc_da, log_gammainc_dx

    series = _poisson_log_weights(nonc, "noncentral chi-square")
    if isinstance(series, NotImplementedTangent):
        return series, series
    i, log_w = series
    a = df[..., None] / 2 + i
    x = np.broadcast_to((y / 2)[..., None], a.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        top, weights, keep = _significant(log_w + log_gammainc_dx(a, x))  # weights: w_i p_i, scaled
        total = np.sum(weights, axis=-1)
        d_nonc = np.sum(weights * x / a, axis=-1) / total
        da = gammainc_da(a[keep], x[keep])
        if isinstance(da, NotImplementedTangent):
            return da, da
        weighted = np.zeros(a.shape)
        weighted[keep] = np.exp((log_w - top)[keep]) * np.asarray(da)
        d_df = -np.sum(weighted, axis=-1) / total
    at_zero = y == 0  # the level 0 for every parameter: the draw stays at 0
    return np.where(at_zero, 0.0, d_df), np.where(at_zero, 0.0, d_nonc)


def _noncentral_f_mixture_partials(y: np.ndarray, dfnum: np.ndarray, dfden: np.ndarray,
                                   nonc: np.ndarray) -> tuple[Any, Any, Any]:
    """``dy/ddfnum``, ``dy/ddfden``, ``dy/dnonc`` of a noncentral F draw along the path that keeps its CDF level.

    With ``T = dfnum y + dfden`` and ``v = dfnum y / T``, the CDF is ``F = sum_i w_i I_v(a_i, b)``,
    ``a_i = dfnum / 2 + i``, ``b = dfden / 2`` (Johnson, Kotz & Balakrishnan, chapter 30), so
    ``f = S dv/dy`` with ``S = sum_i w_i q_i``, ``q_i`` the beta densities at ``v``, ``dv/dy =
    dfnum dfden / T^2``. Then ``dy/ddfnum = -(1/2) sum_i w_i dI/da / (S v_y) - y / dfnum``,
    ``dy/ddfden = -(1/2) sum_i w_i dI/db / (S v_y) + y / dfden`` (the second terms are ``v``'s own
    dependence on the dfs) and, by ``I_v(a, b) - I_v(a + 1, b) = v (1 - v) q(a, b, v) / a`` (DLMF
    8.17.20), ``dy/dnonc = (1/2) sum_i w_i q_i v (1 - v) / a_i / (S v_y)``.
    """
    from chainrules.rulesets.special.incomplete_beta import betainc_dab, log_betainc_dx

    series = _poisson_log_weights(nonc, "noncentral F")
    if isinstance(series, NotImplementedTangent):
        return series, series, series
    i, log_w = series
    total_t = dfnum * y + dfden
    v_y = dfnum * dfden / total_t ** 2
    a = dfnum[..., None] / 2 + i
    b = np.broadcast_to((dfden / 2)[..., None], a.shape)
    v = np.broadcast_to((dfnum * y / total_t)[..., None], a.shape)
    one_minus_v = (dfden / total_t)[..., None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        top, weights, keep = _significant(log_w + log_betainc_dx(a, b, v))  # w_i q_i, scaled
        scale = np.sum(weights, axis=-1) * v_y  # S v_y, scaled alike
        d_nonc = 0.5 * np.sum(weights * v * one_minus_v / a, axis=-1) / scale
        dab = betainc_dab(a[keep], b[keep], v[keep])
        if isinstance(dab, NotImplementedTangent):
            return dab, dab, dab
        scaled_w = np.exp((log_w - top)[keep])
        sums = []
        for d in dab:
            weighted = np.zeros(a.shape)
            weighted[keep] = scaled_w * np.asarray(d)
            sums.append(np.sum(weighted, axis=-1))
        d_dfnum = -0.5 * sums[0] / scale - y / dfnum
        d_dfden = -0.5 * sums[1] / scale + y / dfden
    at_zero = y == 0
    return tuple(np.where(at_zero, 0.0, d) for d in (d_dfnum, d_dfden, d_nonc))  # type: ignore[return-value]


def _noncentral_parts(draw: _Draw, scaled: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(c, n, X)`` with ``y = c (X + n^2)``, ``n = z + sqrt(nonc)``, of a noncentral draw (``df > 1``, ``nonc > 0``).

    NumPy draws ``X`` (a central chi-square with ``df - 1`` degrees of freedom) and ``z``
    (standard normal) before adding ``s = sqrt(nonc)``, and ``noncentral_f`` divides by a
    chi-square ``D`` drawn after them: with the random numbers held fixed the draw is
    ``y(t) = c (X + (z + t)^2)`` in ``t = sqrt(nonc)``, ``c = dfden / (D dfnum)`` (1 for
    ``noncentral_chisquare``). Two replays at ``t = s + h`` and ``s + 2h`` (``h = max(s, 1)``)
    give ``2 c h^2`` (the second difference), ``c (2 n h + h^2)`` (the first) and so ``c``,
    ``n`` and ``X = y / c - n^2`` without the parts being drawn separately. ``X`` is as exact
    as NumPy's own rounding of ``X + n^2`` allows: where ``X`` is far below ``n^2`` (``df``
    close to 1) it, and ``dX/ddf`` (itself ``O(X log X)``), are accurate to about ``eps y`` in
    absolute terms only.
    """
    def parts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        *others, nonc = draw.values
        s = np.sqrt(nonc)
        h = np.maximum(s, 1.0)
        y0, y1 = draw.y, draw.replay(*others, (s + h) ** 2)
        c = (draw.replay(*others, (s + 2 * h) ** 2) - 2 * y1 + y0) / (2 * h * h) if scaled else np.ones_like(y0)
        with np.errstate(divide="ignore", invalid="ignore"):
            n = ((y1 - y0) / c - h * h) / (2 * h)
            return c, n, y0 / c - n * n

    return draw.memo("noncentral", parts)


def _noncentral(draw: _Draw, k: int) -> Any:
    """``d/d nonc`` of ``noncentral_chisquare``/``noncentral_f``: ``dy/ds = 2 c n`` and ``ds/dnonc = 1 / (2 s)``.

    Where ``df <= 1`` (``dfnum <= 1``; a Poisson mixture): :func:`_poisson_mixture_partials`
    (:func:`_noncentral_f_mixture_partials`).
    """
    mixed = _mixture(draw)[-1] if bool(np.any(draw.values[0] <= 1)) else None
    if isinstance(mixed, NotImplementedTangent):
        return mixed
    c, n, _ = _noncentral_parts(draw, draw.name == "noncentral_f")
    with np.errstate(divide="ignore", invalid="ignore"):
        quadratic = c * n / np.sqrt(draw.values[-1])
    return quadratic if mixed is None else np.where(draw.values[0] <= 1, mixed, quadratic)


def _mixture(draw: _Draw) -> tuple[Any, ...]:
    """The partials of a noncentral draw through its CDF, a Poisson mixture (NumPy's path for ``df <= 1``)."""
    values = tuple(np.broadcast_to(v, draw.y.shape) for v in draw.values)
    if draw.name == "noncentral_f":
        return draw.memo("mixture", lambda: _noncentral_f_mixture_partials(draw.y, *values))
    return draw.memo("mixture", lambda: _poisson_mixture_partials(draw.y, *values))


def _noncentral_chisquare_df(draw: _Draw, k: int) -> Any:
    """``dy/ddf = dX/ddf``, ``X`` the chi-square(``df - 1``) part; at ``nonc = 0`` (a central draw) chisquare's;
    for ``df <= 1`` (a Poisson mixture) :func:`_poisson_mixture_partials`."""
    df, nonc = draw.values
    _, _, x = _noncentral_parts(draw, False)
    live = (nonc > 0) & (df > 1)  # elsewhere a placeholder, not used
    inner = _implicit("chi2", np.where(live, x, 1.0), (np.where(live, df - 1, 1.0),))[0]
    central = _implicit("chi2", draw.y, (df,))[0]
    mixture = (nonc > 0) & (df <= 1)
    mixed = _mixture(draw)[0] if bool(np.any(mixture)) else 0.0
    for partial in (inner, central, mixed):
        if isinstance(partial, NotImplementedTangent):
            return partial
    return np.where(live, inner, np.where(mixture, mixed, central))


def _noncentral_f_df(draw: _Draw, k: int) -> Any:
    """``y = c N`` with ``N = X + n^2`` and ``c = dfden / (D dfnum)``: ``dfnum`` through ``X``, ``dfden`` through ``D``.

    ``dy/ddfnum = -y / dfnum + c dX/ddfnum`` and ``dy/ddfden = y / dfden - y dD/ddfden / D``;
    at ``nonc = 0`` NumPy draws a central F: :func:`_f_partials`.
    """
    def partials() -> tuple[Any, Any]:
        dfnum, dfden, nonc = draw.values
        c, _, x = _noncentral_parts(draw, True)
        y = draw.y
        live = (nonc > 0) & (dfnum > 1)  # elsewhere placeholders, not used
        d = np.where(live, dfden / (c * dfnum), 1.0)
        dx = _implicit("chi2", np.where(live, x, 1.0), (np.where(live, dfnum - 1, 1.0),))[0]
        dd = _implicit("chi2", d, (dfden,))[0]
        central = _f_partials(y, dfnum, dfden)
        mixture = (nonc > 0) & (dfnum <= 1)
        mixed = _mixture(draw) if bool(np.any(mixture)) else (0.0, 0.0, 0.0)
        for partial in (dx, dd, central[0], mixed[0]):
            if isinstance(partial, NotImplementedTangent):
                return partial, partial
        return (np.where(mixture, mixed[0], np.where(live, -y / dfnum + c * dx, central[0])),
                np.where(mixture, mixed[1], np.where(live, y / dfden - y * dd / d, central[1])))

    return draw.memo("noncentral_f", partials)[k]


def _nonc_zero_reason(values: tuple[Any, ...]) -> str | None:
    return _NONC_ZERO if bool(np.any(np.asarray(values[-1]) <= 0)) else None


def _never(values: tuple[Any, ...]) -> str | None:
    return None


def _weibull_reason(values: tuple[Any, ...]) -> str | None:
    return _WEIBULL_0 if bool(np.any(np.asarray(values[0]) == 0)) else None


Partial = Callable[[_Draw, int], Any]
"""``partial(draw, k)``: ``dy/dparam_k`` as an array broadcastable to ``y``."""

Reason = Callable[[tuple[Any, ...]], "str | None"]
"""``reason(values)``: why the derivative in a parameter is not implemented at these values, or ``None``."""

_LOC_SCALE = ((("loc", 0.0), ("scale", 1.0)), (_location_scale, _location_scale), (_never, _never))

PATHWISE: dict[str, tuple[tuple[tuple[str, Any], ...], tuple[Partial | None, ...], tuple[Reason, ...]]] = {
    "normal": _LOC_SCALE,
    "laplace": _LOC_SCALE,
    "gumbel": _LOC_SCALE,
    "logistic": _LOC_SCALE,
    "uniform": ((("low", 0.0), ("high", 1.0)), (_uniform, _uniform), (_never, _never)),
    "lognormal": ((("mean", 0.0), ("sigma", 1.0)), (_lognormal, _lognormal), (_never, _never)),
    "exponential": ((("scale", 1.0),), (_scale,), (_never,)),
    "rayleigh": ((("scale", 1.0),), (_scale,), (_never,)),
    "gamma": ((("shape", REQUIRED), ("scale", 1.0)), (_gamma_shape, _gamma), (_never, _never)),
    "pareto": ((("a", REQUIRED),), (_pareto,), (_never,)),
    "weibull": ((("a", REQUIRED),), (_power_law,), (_weibull_reason,)),
    "power": ((("a", REQUIRED),), (_power_law,), (_never,)),
    "triangular": ((("left", REQUIRED), ("mode", REQUIRED), ("right", REQUIRED)), (_triangular,) * 3, (_never,) * 3),
    "vonmises": ((("mu", REQUIRED), ("kappa", REQUIRED)), (_vonmises_mu, _vonmises_kappa), (_never, _never)),
    "noncentral_chisquare": ((("df", REQUIRED), ("nonc", REQUIRED)), (_noncentral_chisquare_df, _noncentral),
                             (_never, _nonc_zero_reason)),
    "noncentral_f": ((("dfnum", REQUIRED), ("dfden", REQUIRED), ("nonc", REQUIRED)),
                     (_noncentral_f_df, _noncentral_f_df, _noncentral), (_never, _never, _nonc_zero_reason)),
    "wald": ((("mean", REQUIRED), ("scale", REQUIRED)), (_wald, _wald), (_never, _never)),
    "standard_gamma": ((("shape", REQUIRED),), (_standard_gamma_shape,), (_never,)),
    "chisquare": ((("df", REQUIRED),), (_chisquare_df,), (_never,)),
    "standard_t": ((("df", REQUIRED),), (_standard_t_df,), (_never,)),
    "beta": ((("a", REQUIRED), ("b", REQUIRED)), (_beta_shape, _beta_shape), (_never, _never)),
    "f": ((("dfnum", REQUIRED), ("dfden", REQUIRED)), (_f_df, _f_df), (_never, _never)),
}
"""Sampler name -> (its parameters with their defaults, the partial of the draw in each, why one is missing)."""


def _pathwise_rules(cls: type, name: str) -> None:
    method = getattr(cls, name)
    params = PATHWISE[name][0]
    n = len(params)
    label = f"{cls.__name__}.{name}"

    def _partial(k: int) -> Partial | None:
        return PATHWISE[name][1][k]  # looked up at each call: the table is the one source of the derivatives

    def _values(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(args[k] if k < len(args) else kwargs.get(p, default) for k, (p, default) in enumerate(params))

    def _missing(k: int, values: tuple[Any, ...]) -> str | None:
        reason = PATHWISE[name][2][k](values)
        return None if reason is None else f"{label}: {params[k][0]}: {reason}"

    def pathwise_rrule(source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        snapshot = _Snapshot(source)
        y = method(source, *args, **kwargs)
        values = _values(args, kwargs)
        given = args[:n]
        projectors = [cotangent_projector(v) for v in given]
        draw = _Draw(snapshot, name, y, values) if any(differentiable(v) for v in given) else None

        def pathwise_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, label)
            tail = (NO,) * (len(args) - len(given))
            out: list[Any] = []
            for k, (project, value) in enumerate(zip(projectors, given)):
                if not differentiable(value):
                    out.append(NO)
                    continue
                reason = _missing(k, values)
                if passes_through(dy):
                    out.append(zero_result(dy))
                elif reason is not None:
                    out.append(not_implemented(reason))
                else:
                    out.append(Thunk(_weighted(project, _partial(k), draw, k, np.asarray(dy), value)))
            return (NO, NO, *out, *tail)

        pathwise_pullback.__name__ = pathwise_pullback.__qualname__ = f"{name}_pullback"
        return y, pathwise_pullback

    def pathwise_frule(tangents: tuple[Any, ...], source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        snapshot = _Snapshot(source)
        y = method(source, *args, **kwargs)
        values = _values(args, kwargs)
        draw: _Draw | None = None
        total: Any = None
        for k, value in enumerate(args[:n]):
            if not differentiable(value):
                continue
            d = tangent_array(tangents[2 + k], value)
            if d is None:
                continue
            if isinstance(d, NotImplementedTangent):
                return y, d
            reason = _missing(k, values)
            if reason is not None:
                return y, not_implemented(reason)
            draw = draw or _Draw(snapshot, name, y, values)
            partial = _partial(k)
            assert partial is not None  # a parameter without a partial has a reason
            weight = partial(draw, k)
            if isinstance(weight, NotImplementedTangent):
                return y, weight
            term = weight * d
            total = term if total is None else total + term
        return y, output_tangent(None if total is None else np.broadcast_to(total, np.shape(y)), y)

    pathwise_rrule.__name__ = pathwise_rrule.__qualname__ = f"{name}_rrule"
    pathwise_frule.__name__ = pathwise_frule.__qualname__ = f"{name}_frule"
    pathwise_rrule.__doc__ = f"Reverse rule of ``{label}``: the pathwise derivative (generator state held fixed)."
    pathwise_frule.__doc__ = f"Forward rule of ``{label}``: the pathwise derivative."
    rrule.register(method, cls, Varargs(object))(pathwise_rrule)
    frule.register(method, cls, Varargs(object))(pathwise_frule)


def _weighted(project: Callable[[Any], Any], partial: Partial | None, draw: _Draw | None, k: int, dy: np.ndarray,
              value: Any) -> Callable[[], Any]:
    def weighted_cotangent() -> Any:
        assert partial is not None and draw is not None
        weight = partial(draw, k)
        if isinstance(weight, NotImplementedTangent):
            return weight
        return project(cast_like(np.asarray(unbroadcast(weight * dy.real, np.shape(value))), value))

    return weighted_cotangent


# ---- dirichlet: stick breaking -------------------------------------------------------------------------------
def _dirichlet_rules(cls: Any) -> None:
    """``dirichlet(alpha, size)``: the implicit derivative through the stick-breaking representation.

    ``v_i = x_i / (1 - x_1 - ... - x_(i-1))`` are independent ``Beta(alpha_i, alpha_(i+1) +
    ... + alpha_K)``; each held at its own CDF level, the ``v``'s move by their implicit beta
    partials and ``x`` follows by the chain rule (the same computation as ``scipy.stats.dirichlet.rvs``'s
    rules, :class:`chainrules.rulesets.stats.sampling._StickBreaking`, imported, not copied).
    """
    method = cls.dirichlet
    label = f"{cls.__name__}.dirichlet"

    def sticks(y: Any, alpha: Any) -> Any:
        from chainrules.rulesets.stats.sampling import _StickBreaking

        return _StickBreaking(np.asarray(y, dtype=np.float64), np.asarray(alpha, dtype=np.float64))

    def dirichlet_rrule(source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        y = method(source, *args, **kwargs)
        alpha = args[0] if args else kwargs.get("alpha")  # by keyword: used, not differentiated
        live = bool(args) and differentiable(alpha)
        project = cotangent_projector(alpha)

        def dirichlet_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, label)
            tail = (NO,) * (len(args) - 1)
            if not live:
                return (NO, NO, *(NO,) * len(args))
            if passes_through(dy):
                return (NO, NO, zero_result(dy), *tail)
            broken = sticks(y, alpha)
            if broken.missing is not None:
                return (NO, NO, broken.missing, *tail)
            return (NO, NO, project(cast_like(broken.pullback(np.asarray(dy).real), alpha)), *tail)

        return y, dirichlet_pullback

    def dirichlet_frule(tangents: tuple[Any, ...], source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y = method(source, *args, **kwargs)
        d = tangent_array(tangents[2], args[0]) if args and differentiable(args[0]) else None
        if d is None or isinstance(d, NotImplementedTangent):
            return y, output_tangent(d, y)
        broken = sticks(y, args[0])
        if broken.missing is not None:
            return y, broken.missing
        return y, output_tangent(broken.pushforward(np.real(d).astype(np.float64)), y)

    dirichlet_rrule.__name__ = dirichlet_rrule.__qualname__ = "dirichlet_rrule"
    dirichlet_frule.__name__ = dirichlet_frule.__qualname__ = "dirichlet_frule"
    dirichlet_rrule.__doc__ = f"Reverse rule of ``{label}``: the implicit stick-breaking derivative in ``alpha``."
    dirichlet_frule.__doc__ = f"Forward rule of ``{label}``."
    rrule.register(method, cls, Varargs(object))(dirichlet_rrule)
    frule.register(method, cls, Varargs(object))(dirichlet_frule)


# ---- multivariate_normal: the mean, and the covariance through NumPy's factor -----------------------------
_GAP = 1e-8
"""Singular values (eigenvalues) of ``cov`` closer than this, relative to the largest, count as equal."""


def _tangent_parts(tangent: Any, primals: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    """The parts of a decomposition's output tangent as arrays (zeros for zero parts)."""
    tangent = unthunk(tangent)
    if isinstance(tangent, AbstractZero):
        return [np.zeros_like(p) for p in primals]
    stored = backing(tangent)
    parts = list(stored.values()) if isinstance(stored, dict) else list(stored)
    return [np.zeros_like(p) if isinstance(unthunk(d), AbstractZero) else np.asarray(unthunk(d))
            for d, p in zip(parts, primals)]


def _factor_rules(cov: np.ndarray, how: str, legacy: bool) -> tuple[np.ndarray, Any, Any, str | None]:
    """``F`` with ``y = mean + z F^T``; the function from ``F``'s cotangent to ``cov``'s; and from ``dcov`` to ``dF``.

    The last entry is why ``cov`` has no derivative here (``None`` if it has one).
    """
    if how == "cholesky":
        factor, pullback = rrule(np.linalg.cholesky, cov)

        def cholesky_cov_cotangent(f_bar: np.ndarray) -> Any:
            return pullback(np.tril(f_bar))[1]

        def cholesky_factor_tangent(dcov: np.ndarray) -> Any:
            return frule((NO, dcov), np.linalg.cholesky, cov)[1]

        return factor, cholesky_cov_cotangent, cholesky_factor_tangent, None
    if how == "eigh":
        (s, u), pullback = rrule(np.linalg.eigh, cov)
        root = np.sqrt(np.abs(s))
        values = np.sort(np.abs(s))
    else:
        (u, s, vh), pullback = rrule(np.linalg.svd, cov)
        root = np.sqrt(s)
        values = np.sort(s)
    scale = max(float(values[-1]), np.finfo(np.float64).tiny)
    reason = None
    if values[0] <= _GAP * scale or np.any(np.diff(values) <= _GAP * scale):
        reason = (f"cov has a zero or a repeated {'eigenvalue' if how == 'eigh' else 'singular value'}: NumPy's "
                  f"factor of cov ({how}), so the draw, is not differentiable there (cov = I is such a point); "
                  "Generator.multivariate_normal(..., method='cholesky') draws through a factor smooth at every "
                  "positive definite cov")
    if how == "eigh":
        factor = u * root
        sign = np.sign(s)

        def eigh_cov_cotangent(f_bar: np.ndarray) -> Any:
            s_bar = np.sum(f_bar * u, axis=0) * sign / (2 * root)
            return pullback((s_bar, f_bar * root))[1]

        def eigh_factor_tangent(dcov: np.ndarray) -> Any:
            ds, du = _tangent_parts(frule((NO, dcov), np.linalg.eigh, cov)[1], (s, u))
            return du * root + u * (sign * ds / (2 * root))

        return factor, eigh_cov_cotangent, eigh_factor_tangent, reason
    if legacy:  # RandomState: y = z diag(sqrt(s)) vh, so F = vh^T diag(sqrt(s))
        factor = vh.T * root

        def legacy_cov_cotangent(f_bar: np.ndarray) -> Any:
            s_bar = np.sum(f_bar * vh.T, axis=0) / (2 * root)
            return pullback((ZERO, s_bar, (f_bar * root).T))[1]

        def legacy_factor_tangent(dcov: np.ndarray) -> Any:
            _, ds, dvh = _tangent_parts(frule((NO, dcov), np.linalg.svd, cov)[1], (u, s, vh))
            return dvh.T * root + vh.T * (ds / (2 * root))

        return factor, legacy_cov_cotangent, legacy_factor_tangent, reason
    factor = u * root

    def svd_cov_cotangent(f_bar: np.ndarray) -> Any:
        s_bar = np.sum(f_bar * u, axis=0) / (2 * root)
        return pullback((f_bar * root, s_bar, ZERO))[1]

    def svd_factor_tangent(dcov: np.ndarray) -> Any:
        du, ds, _ = _tangent_parts(frule((NO, dcov), np.linalg.svd, cov)[1], (u, s, vh))
        return du * root + u * (ds / (2 * root))

    return factor, svd_cov_cotangent, svd_factor_tangent, reason


def _multivariate_normal_rules(cls: Any) -> None:
    method = cls.multivariate_normal
    label = f"{cls.__name__}.multivariate_normal"
    legacy = cls is np.random.RandomState

    def _standard_normals(snapshot: _Snapshot, y: np.ndarray) -> np.ndarray:
        return np.asarray(snapshot.twin().standard_normal(y.shape)).reshape(-1, y.shape[-1])

    def multivariate_normal_rrule(source: Any, mean: Any, cov: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        snapshot = _Snapshot(source)
        y = method(source, mean, cov, *args, **kwargs)
        how = "svd" if legacy else kwargs.get("method", "svd")
        project_mean, project_cov = cotangent_projector(mean), cotangent_projector(cov)
        cov64 = np.array(cov, dtype=np.float64)
        factor_rules = _factor_rules(cov64, how, legacy) if differentiable(cov) else None

        def multivariate_normal_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, label)
            tail = (NO,) * len(args)
            if passes_through(dy):
                zero = zero_result(dy)
                return (NO, NO, project_mean(zero), project_cov(zero) if factor_rules is not None else NO, *tail)
            rows = np.asarray(dy).real.reshape(-1, y.shape[-1])

            def mean_cotangent() -> Any:
                return project_mean(cast_like(np.sum(rows, axis=0).reshape(np.shape(mean)), mean))

            def cov_cotangent() -> Any:
                assert factor_rules is not None
                z = _standard_normals(snapshot, y)
                return project_cov(cast_like(np.asarray(unthunk(factor_rules[1](rows.T @ z))), cov))

            d_mean = Thunk(mean_cotangent) if differentiable(mean) else NO
            if factor_rules is None:
                d_cov: Any = NO
            elif factor_rules[3] is not None:
                d_cov = not_implemented(f"{label}: {factor_rules[3]}")
            else:
                d_cov = Thunk(cov_cotangent)
            return (NO, NO, d_mean, d_cov, *tail)

        return y, multivariate_normal_pullback

    def multivariate_normal_frule(tangents: tuple[Any, ...], source: Any, mean: Any, cov: Any, *args: Any,
                                  **kwargs: Any) -> tuple[Any, Any]:
        snapshot = _Snapshot(source)
        y = method(source, mean, cov, *args, **kwargs)
        d_mean = tangent_array(tangents[2], mean) if differentiable(mean) else None
        d_cov = tangent_array(tangents[3], cov) if differentiable(cov) else None
        for d in (d_mean, d_cov):
            if isinstance(d, NotImplementedTangent):
                return y, d
        total: Any = None if d_mean is None else np.broadcast_to(np.real(d_mean), y.shape)
        if d_cov is not None:
            how = "svd" if legacy else kwargs.get("method", "svd")
            _, _, factor_tangent, reason = _factor_rules(np.array(cov, dtype=np.float64), how, legacy)
            if reason is not None:
                return y, not_implemented(f"{label}: {reason}")
            z = _standard_normals(snapshot, y)
            term = (z @ np.asarray(factor_tangent(np.real(d_cov).astype(np.float64))).T).reshape(y.shape)
            total = term if total is None else total + term
        return y, output_tangent(total, y)

    multivariate_normal_rrule.__name__ = multivariate_normal_rrule.__qualname__ = "multivariate_normal_rrule"
    multivariate_normal_frule.__name__ = multivariate_normal_frule.__qualname__ = "multivariate_normal_frule"
    multivariate_normal_rrule.__doc__ = (f"Reverse rule of ``{label}``: the identity for ``mean``, ``cov`` through the "
                                         "factor NumPy draws with.")
    multivariate_normal_frule.__doc__ = f"Forward rule of ``{label}``."
    rrule.register(method, cls, ARRAY_LIKE, ARRAY_LIKE, Varargs(object))(multivariate_normal_rrule)
    frule.register(method, cls, ARRAY_LIKE, ARRAY_LIKE, Varargs(object))(multivariate_normal_frule)


# ---- choice and permutation: gathers at the drawn positions ----------------------------------------------
def _gather_draw_rules(cls: type, name: str) -> None:
    method = getattr(cls, name)
    label = f"{cls.__name__}.{name}"
    generator = cls is np.random.Generator

    def positions(snapshot: _Snapshot, a: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, int]:
        """The same draw over positions, from a twin of the generator (``source`` is not advanced)."""
        twin = snapshot.twin()
        if name == "choice":
            axis = kwargs.get("axis", args[3] if len(args) > 3 else 0) if generator else 0
            twin_args = list(args)
            if len(twin_args) > 3:
                twin_args[3] = 0
            twin_kwargs = {**kwargs, "axis": 0} if "axis" in kwargs else kwargs
            axis = normalize_axis_index(axis, a.ndim)
            return twin.choice(a.shape[axis], *twin_args, **twin_kwargs), axis
        axis = kwargs.get("axis", args[0] if args else 0) if generator else 0
        axis = normalize_axis_index(axis, a.ndim)
        return twin.permutation(a.shape[axis]), axis

    def draw_rrule(source: Any, a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        snapshot = _Snapshot(source)
        y = method(source, a, *args, **kwargs)
        live = isinstance(a, np.ndarray) and a.ndim > 0 and differentiable(a)
        project_a = cotangent_projector(a)

        def gather_draw_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, label)
            rest = (NO,) * len(args)
            if not live:
                return (NO, NO, NO, *rest)
            if passes_through(dy):
                return (NO, NO, zero_result(dy), *rest)
            index, axis = positions(snapshot, a, args, kwargs)
            out = np.zeros(a.shape, dtype=np.result_type(a.dtype, np.asarray(dy).dtype))
            where: Any = (slice(None),) * axis + (np.asarray(index),)
            np.add.at(out, where, dy)
            return (NO, NO, project_a(cast_like(out, a)), *rest)

        gather_draw_pullback.__name__ = gather_draw_pullback.__qualname__ = f"{name}_pullback"
        return y, gather_draw_pullback

    def draw_frule(tangents: tuple[Any, ...], source: Any, a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        snapshot = _Snapshot(source)
        y = method(source, a, *args, **kwargs)
        if not isinstance(a, np.ndarray) or a.ndim == 0 or not differentiable(a):
            return y, output_tangent(None, y)
        d = tangent_array(tangents[2], a)
        if d is None or isinstance(d, NotImplementedTangent):
            return y, output_tangent(d, y)
        index, axis = positions(snapshot, a, args, kwargs)
        return y, output_tangent(np.take(d, index, axis=axis), y)

    draw_rrule.__name__ = draw_rrule.__qualname__ = f"{name}_rrule"
    draw_frule.__name__ = draw_frule.__qualname__ = f"{name}_frule"
    rrule.register(method, cls, ARRAY_LIKE, Varargs(object))(draw_rrule)
    frule.register(method, cls, ARRAY_LIKE, Varargs(object))(draw_frule)


def _shuffle_error(cls: Any) -> None:
    message = (f"{cls.__name__}.shuffle shuffles its argument in place; use permutation(x) (it has rules): "
               "a derivative rule cannot differentiate a write into an existing array")

    def in_place_rrule(*args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    def in_place_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    in_place_rrule.__qualname__ = f"{cls.__name__}.shuffle_rrule"
    in_place_frule.__qualname__ = f"{cls.__name__}.shuffle_frule"
    rrule.register(cls.shuffle, cls, Varargs(object))(in_place_rrule)
    frule.register(cls.shuffle, cls, Varargs(object))(in_place_frule)


NON_DIFFERENTIABLE_SAMPLERS = (
    "rand", "randn", "random", "random_sample", "standard_normal", "standard_cauchy", "standard_exponential",
    "randint", "random_integers", "integers", "bytes", "binomial", "poisson", "geometric", "hypergeometric",
    "logseries", "multinomial", "negative_binomial", "zipf", "multivariate_hypergeometric", "seed", "get_state",
    "set_state", "spawn",
)
"""Samplers (and state functions) whose outputs depend on no differentiable parameter."""

for _cls in SOURCES:
    for _name in PATHWISE:
        _pathwise_rules(_cls, _name)
    _multivariate_normal_rules(_cls)
    _dirichlet_rules(_cls)
    for _name in ("choice", "permutation"):
        _gather_draw_rules(_cls, _name)
    _shuffle_error(_cls)
    for _name in NON_DIFFERENTIABLE_SAMPLERS:
        if hasattr(_cls, _name):
            non_differentiable(getattr(_cls, _name))

for _f in (np.random.default_rng, np.random.seed, np.random.ranf, np.random.sample):
    non_differentiable(_f)


# ---- sample inputs -------------------------------------------------------------------------------------------
# Each sample draws from a FixedStateGenerator / FixedStateRandomState: a generator whose draws do not advance
# it, so the rules, the primal calls and every finite-difference evaluation of the testers see the same random
# numbers (see chainrules/rulesets/arrays/_sample_arrays.py). A parameter whose derivative is not implemented
# is held fixed (PrimalAndTangent(value, NoTangent())) in one sample, so the others are checked, and left free
# in another, which the checker reports as "not implemented" with the reason.
def _fixed(value: Any, tangent: Any = NO) -> Any:
    from chainrules.testing import PrimalAndTangent

    return PrimalAndTangent(value, tangent)


_INVERSION_ONLY = ("shapes given as integers, not differentiated: their implicit derivative follows the inverse "
                   "CDF, not NumPy's rejection sampler, so finite differences of this draw cannot check it; "
                   "test_random.py checks it along the inversion path")


def _at_zero_scale(source: Any, location: float) -> Sample:
    """A sample at scale (sigma) 0, the edge of the domain: forward differences, in a positive direction."""
    from chainrules.testing import forward_fdm

    return Sample(source, location, _fixed(0.0, 0.75), 2, fdm=forward_fdm(5, 1), label="scale 0 (one-sided)")


def _at_zero_nonc(source: Any, *dfs: int) -> Sample:
    """A noncentral sampler at ``nonc = 0`` (the edge of the domain: forward differences): not implemented."""
    from chainrules.testing import forward_fdm

    return Sample(source, *dfs, 0.0, 2, fdm=forward_fdm(5, 1), label="nonc = 0 (not implemented)")


def _source(cls: type) -> Any:
    """A fixed-state generator of the class ``cls`` (a sampler's ``self`` must be of its own class)."""
    rng, legacy = fixed_state_generators(5)
    return rng if cls is np.random.Generator else legacy


def _pathwise_samples(cls: type, name: str) -> Callable[[], Iterator[Sample]]:
    def samples() -> Iterator[Sample]:
        yield from _SAMPLES[name](_source(cls))

    samples.__qualname__ = f"{cls.__name__}.{name}_samples"
    return samples


def _location_scale_samples(source: Any) -> Iterator[Sample]:
    yield Sample(source, 0.3, 1.5, 3, label="numbers, a size")
    yield Sample(source, np.array([0.1, -2.0]), np.array([[0.5], [2.0]]), label="broadcast arrays")
    yield Sample(source, np.float32(1.0), fkwargs={"scale": 2.0, "size": 2}, label="float32, scale by keyword")
    yield _at_zero_scale(source, 1.0)


_SAMPLES: dict[str, Callable[[Any], Iterator[Sample]]] = {
    "normal": _location_scale_samples,
    "laplace": _location_scale_samples,
    "gumbel": _location_scale_samples,
    "logistic": _location_scale_samples,
    "uniform": lambda source: iter([
        Sample(source, -1.0, 2.0, 4, label="numbers"),
        Sample(source, np.array([0.0, 1.0]), np.array([[2.0], [3.0]]), label="broadcast arrays")]),
    "lognormal": lambda source: iter([
        Sample(source, 0.2, 0.3, 3, label="numbers"),
        _at_zero_scale(source, 0.5)]),
    "exponential": lambda source: iter([
        Sample(source, 2.0, 3, label="a number"),
        Sample(source, np.array([0.5, 2.0], np.float32), label="float32 array")]),
    "rayleigh": lambda source: iter([Sample(source, np.array([1.0, 2.0]), label="an array")]),
    "gamma": lambda source: iter([Sample(source, 3, 3.0, 4, label=f"scale ({_INVERSION_ONLY})")]),
    "pareto": lambda source: iter([Sample(source, 3.0, 4, label="a number"),
                                          Sample(source, np.array([0.5, 5.0]), label="an array")]),
    "weibull": lambda source: iter([Sample(source, 1.5, 4, label="a number"),
                                           Sample(source, np.array([0.7, 3.0]), label="an array")]),
    "power": lambda source: iter([Sample(source, 2.5, 4, label="a number"),
                                         Sample(source, np.array([0.5, 4.0]), label="an array")]),
    "triangular": lambda source: iter([
        Sample(source, -1.0, 0.5, 2.0, 6, label="numbers"),
        Sample(source, np.array([0.0, 1.0]), 1.5, np.array([[2.0], [4.0]]), label="broadcast arrays")]),
    "vonmises": lambda source: iter([
        Sample(source, 0.5, 4, 4, label=f"mu ({_INVERSION_ONLY}; kappa < 1e-8, where mu's derivative is 0, is "
                                        "checked in test_random.py)")]),
    "noncentral_chisquare": lambda source: iter([
        Sample(source, 3, 1.5, 4, label=f"nonc ({_INVERSION_ONLY})"),
        Sample(source, np.array([2, 5]), np.array([[0.5], [4.0]]), label="broadcast nonc"),
        _at_zero_nonc(source, 3)]),
    "noncentral_f": lambda source: iter([
        Sample(source, 3, 5, 1.5, 4, label=f"nonc ({_INVERSION_ONLY})"),
        _at_zero_nonc(source, 3, 5)]),
    "wald": lambda source: iter([Sample(source, 2, 3, 3, label=_INVERSION_ONLY)]),
    "standard_gamma": lambda source: iter([Sample(source, 3, 3, label=_INVERSION_ONLY)]),
    "chisquare": lambda source: iter([Sample(source, 3, 3, label=_INVERSION_ONLY)]),
    "standard_t": lambda source: iter([Sample(source, 4, 3, label=_INVERSION_ONLY)]),
    "beta": lambda source: iter([Sample(source, 2, 3, 3, label=_INVERSION_ONLY)]),
    "f": lambda source: iter([Sample(source, 3, 5, 3, label=_INVERSION_ONLY)]),
    "dirichlet": lambda source: iter([Sample(source, np.array([1, 2, 3]), 2, label=_INVERSION_ONLY)]),
}

for _cls in SOURCES:
    for _name in PATHWISE:
        sample_inputs(getattr(_cls, _name))(_pathwise_samples(_cls, _name))
    sample_inputs(_cls.dirichlet)(_pathwise_samples(_cls, "dirichlet"))


@sample_inputs(np.random.Generator.multivariate_normal)
def _generator_multivariate_normal_samples(rng: np.random.Generator) -> Iterator[Sample]:
    source, _ = fixed_state_generators(5)
    mean, cov = rng.standard_normal(3), spd(3, rng)
    ignore = {"check_valid": "ignore"}  # finite differences perturb cov off symmetry: no warning
    yield Sample(source, mean, cov, 4, fkwargs=ignore, label="svd (the default)")
    yield Sample(source, mean.tolist(), cov, (2, 2), fkwargs={**ignore, "method": "eigh"}, label="eigh, a list mean")
    yield Sample(source, mean.astype(np.float32), cov, fkwargs={**ignore, "method": "cholesky"},
                 label="cholesky, float32 mean, one draw")
    yield Sample(source, mean, _fixed(np.eye(3)), 2, fkwargs=ignore, label="mean at cov = I (cov held fixed)")
    yield Sample(source, mean, np.eye(3), 2, fkwargs=ignore, label="cov = I: no derivative (not implemented)")


@sample_inputs(np.random.RandomState.multivariate_normal)
def _legacy_multivariate_normal_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _, source = fixed_state_generators(5)
    mean, cov = rng.standard_normal(2), spd(2, rng)
    yield Sample(source, mean, cov, 3, "ignore", label="svd")
    yield Sample(source, mean, cov, fkwargs={"size": (2, 1), "check_valid": "ignore"}, label="size by keyword")


def _choice_samples(rng: np.random.Generator, source: Any) -> Iterator[Sample]:
    x = rng.standard_normal(5)
    yield Sample(source, x, 7, label="with replacement")
    yield Sample(source, x, (2, 2), True, _fixed(np.full(5, 0.2)), label="probabilities")
    yield Sample(source, x, 3, False, label="without replacement")
    yield Sample(source, 5, 2, label="an integer population (nothing differentiated)")


@sample_inputs(np.random.Generator.choice)
def _generator_choice_samples(rng: np.random.Generator) -> Iterator[Sample]:
    source = _source(np.random.Generator)
    yield from _choice_samples(rng, source)
    yield Sample(source, rng.standard_normal((4, 2)), 2, False, None, 1, label="along axis 1")


@sample_inputs(np.random.RandomState.choice)
def _legacy_choice_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from _choice_samples(rng, _source(np.random.RandomState))


@sample_inputs(np.random.Generator.permutation)
def _generator_permutation_samples(rng: np.random.Generator) -> Iterator[Sample]:
    source = _source(np.random.Generator)
    yield Sample(source, rng.standard_normal((4, 2)), label="rows")
    yield Sample(source, 4, label="an integer (nothing differentiated)")
    yield Sample(source, rng.standard_normal((2, 3)), 1, label="along axis 1")


@sample_inputs(np.random.RandomState.permutation)
def _legacy_permutation_samples(rng: np.random.Generator) -> Iterator[Sample]:
    source = _source(np.random.RandomState)
    yield Sample(source, rng.standard_normal((4, 2)), label="rows")
    yield Sample(source, 4, label="an integer (nothing differentiated)")


def _non_differentiable_calls(source: Any) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "rand": [(2, 3)], "randn": [(3,)], "random": [(3,)], "random_sample": [(3,)],
        "standard_normal": [(3,)], "standard_cauchy": [(2,)], "standard_exponential": [(2,)],
        "randint": [(0, 5, 3)], "random_integers": [(1, 5, 3)], "integers": [(0, 5, 3)], "bytes": [(4,)],
        "binomial": [(5, 0.3, 3)], "poisson": [(2.5, 3)], "geometric": [(0.4, 3)], "hypergeometric": [(5, 4, 3, 2)],
        "logseries": [(0.6, 3)], "multinomial": [(5, [0.25, 0.75], 2)], "negative_binomial": [(3, 0.4, 3)],
        "zipf": [(2.5, 3)], "multivariate_hypergeometric": [([3, 4], 3, 2)], "seed": [(7,)], "get_state": [()],
        "set_state": [(_fixed(np.random.RandomState(3).get_state()),)],
    }


def _non_differentiable_sampler_samples(cls: type, name: str) -> Callable[[], Iterator[Sample]]:
    def samples() -> Iterator[Sample]:
        source = _source(cls)
        for args in _non_differentiable_calls(source)[name]:
            yield Sample(source, *args)

    samples.__qualname__ = f"{cls.__name__}.{name}_samples"
    return samples


def _no_samples() -> Iterator[Sample]:
    """No sample: these return generators (which the testers cannot compare by value), draw from NumPy's global
    generator (which every call advances, so no call can be repeated), or write in place (``shuffle``, whose rule
    raises). ``tests/chainrules/rulesets/arrays/test_random.py`` checks their rules."""
    return iter(())


for _name in NON_DIFFERENTIABLE_SAMPLERS:
    if _name != "spawn":
        for _cls in SOURCES:
            if hasattr(_cls, _name):
                sample_inputs(getattr(_cls, _name))(_non_differentiable_sampler_samples(_cls, _name))
sample_inputs(np.random.Generator.spawn, np.random.default_rng, np.random.seed, np.random.ranf, np.random.sample,
              np.random.Generator.shuffle, np.random.RandomState.shuffle)(_no_samples)
