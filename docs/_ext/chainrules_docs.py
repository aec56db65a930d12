"""Sphinx extension of the chainrules documentation: pages generated from the package at build time.

When the builder starts (``builder-inited``) it writes, from the installed ``chainrules``:

* ``api/generated/``: the API reference, one page per public object of ``chainrules_core``,
  ``chainrules``, ``chainrules.testing``, ``chainrules.structured`` and
  ``chainrules.interop.*``, grouped by topic (every name in a package's ``__all__`` is
  documented; names without a topic go under "Other");
* ``catalogue/``: the rule catalogue, read from :mod:`chainrules.catalogue` (the data of
  ``chainrules coverage``): one page per family of NumPy functions and per SciPy module,
  one row per function, a coverage page per public module, and one page per ruleset module
  with its docstring and its source (with line anchors the rows link to);
* ``_generated/cli-*.txt``: the ``--help`` of the command line and of each subcommand.

A file is rewritten only when its text changes, so incremental builds stay incremental.
Set ``CHAINRULES_DOCS_NO_PROBE=1`` to skip running the rules at their samples (the
catalogue then shows registrations only; used for quick local builds).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
import re
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

# ---- writing files ------------------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _prune(folder: Path, keep: set[Path]) -> None:
    """Remove generated files that are not generated any more (a deleted module, a renamed page)."""
    if not folder.exists():
        return
    for path in folder.rglob("*.rst"):
        if path not in keep:
            path.unlink()


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def _rst_escape(text: str) -> str:
    """Plain text safe inside reStructuredText (no markup is interpreted)."""
    return re.sub(r"([\\`*_|<>\[\]])", r"\\\1", text)


def _literal(text: str) -> str:
    text = text.replace("`", "'")
    return f"``{text}``" if text else ""


# ---- API reference --------------------------------------------------------------------------------------

API: list[tuple[str, str, list[tuple[str, list[str]]]]] = [
    ("chainrules_core", "The thin core: tangents, projection, the rule registries, configurations and the tools "
                        "that define rules. It depends on NumPy and multipledispatch only.", [
        ("Looking up and registering rules", ["rrule", "frule", "RuleSignature", "Varargs", "RuleHook", "opt_out",
                                              "OPTED_OUT"]),
        ("Writing rules", ["scalar_rule", "non_differentiable", "not_implemented", "read_cotangent",
                           "read_cotangents", "differentiable", "passes_through", "reject_keywords",
                           "UnsupportedKeywordError", "NUMERIC", "ignore_derivatives"]),
        ("Sample inputs", ["Sample", "sample_inputs", "samples_of", "functions_with_samples"]),
        ("Tangents", ["AbstractTangent", "AbstractZero", "ZeroTangent", "NoTangent", "Tangent", "AbstractThunk",
                      "Thunk", "InplaceableThunk", "NotImplementedTangent", "thunk", "unthunk", "backing",
                      "canonicalize", "iszero", "add_", "is_inplaceable_destination"]),
        ("Projection", ["ProjectTo", "Projector", "cotangent_projector", "ProjectionError", "check_cotangent_shape",
                        "unbroadcast"]),
        ("Configurations", ["RuleConfig", "HasReverseMode", "NoReverseMode", "HasForwardsMode", "NoForwardsMode",
                            "RulesOnlyConfig", "rrule_via_ad", "frule_via_ad", "NoRuleError"]),
        ("Loading rules on first use", ["declare_lazy_rules"]),
        ("Warnings", ["AmbiguousRuleWarning", "RuleOverwriteWarning", "RuleHookWarning"]),
    ]),
    ("chainrules", "The rules for NumPy and SciPy. ``import chainrules`` declares every built-in ruleset "
                   "(loaded on first use) and loads the rule packages of other distributions; it re-exports "
                   "the whole of :mod:`chainrules_core`.", [
        ("Rule packages (plugins)", ["load_plugins", "loaded_plugins", "plugins_disabled", "PluginLoadWarning",
                                     "PLUGIN_GROUP", "DISABLE_VARIABLE"]),
        ("The catalogue and the coverage report", ["chainrules.catalogue", "chainrules.coverage"]),
    ]),
    ("chainrules.testing", "Check any rule against finite differences of the primal function, the way the "
                           "rules of this library are checked.", [
        ("Testers", ["test_rrule", "test_frule", "test_scalar", "PrimalAndTangent",
                     "NotImplementedDerivativeWarning"]),
        ("Checking every rule at its samples", ["check_rules", "check_function", "CheckResult"]),
        ("Finite differences", ["central_fdm", "forward_fdm", "backward_fdm", "extrapolate",
                                "FiniteDifferenceMethod", "default_fdm", "grad", "jvp", "vjp", "jacobian"]),
        ("Tangents, comparisons and trees", ["rand_tangent", "check_approx", "default_tolerances", "tree_flatten",
                                             "register_tree_node"]),
        ("A fast path against its general path", ["outcome", "check_same_outcome"]),
        ("Property-based testing", ["strategies"]),
    ]),
    ("chainrules.structured", "Diagonal, triangular, symmetric, Hermitian and banded matrices that store only "
                              "their free parameters, and projection onto them and onto ``scipy.sparse``.", [
        ("Matrix types", ["StructuredMatrix", "Diagonal", "UpperTriangular", "LowerTriangular", "Symmetric",
                          "Hermitian", "Bidiagonal", "Tridiagonal", "SymTridiagonal", "STRUCTURED_TYPES"]),
        ("Projection", ["StructuredProjector", "sparse"]),
    ]),
    ("chainrules.interop", "Bridges through which automatic-differentiation frameworks pull the rules.", [
        ("Bridges", ["BRIDGES"]),
    ]),
]
"""Per documented package: its introduction and its topics (names of its ``__all__``, in order)."""

_REGISTRY_CLASSES = {"chainrules_core.rrule": "chainrules_core.RRuleRegistry",
                     "chainrules_core.frule": "chainrules_core.FRuleRegistry"}
_BRIDGE_ERRORS = {"HigherOrderDerivativeError", "KeywordArgumentError", "NoRuleError", "NotImplementedDerivativeError"}
_HIDDEN = {"chainrules_core": {"RRuleRegistry", "FRuleRegistry"}, "chainrules": {"rulesets"},
           "chainrules.interop.autograd": {"scipy", "numpy"},
           "chainrules.interop.jax": {"scipy", "numpy", *_BRIDGE_ERRORS},
           "chainrules.interop.torch": {"scipy", "numpy", *_BRIDGE_ERRORS}}
"""Names documented on another page (the registries' classes, on the pages of ``rrule`` and ``frule``; the
bridges' shared errors (``chainrules.interop.errors``), on the autograd bridge's pages; the bridges'
``scipy``/``numpy`` namespaces, whose functions are SciPy's and NumPy's own, in their guides)."""


def _packages() -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """:data:`API` plus one entry per bridge in ``chainrules.interop.BRIDGES``."""
    import chainrules.interop

    out = list(API)
    for bridge in chainrules.interop.BRIDGES:
        name = f"chainrules.interop.{bridge}"
        module = importlib.import_module(name)
        summary = (inspect.getdoc(module) or "").split("\n\n")[0].replace("\n", " ")
        out.append((name, summary, []))
    return out


def _kind(obj: Any) -> str:
    if inspect.ismodule(obj):
        return "module"
    if isinstance(obj, type):
        return "exception" if issubclass(obj, BaseException) else "class"
    if inspect.isroutine(obj) or (callable(obj) and hasattr(obj, "__wrapped__")):
        return "function"
    return "data"


def _object_page(fullname: str, obj: Any) -> str:
    kind = _kind(obj)
    module, _, name = fullname.rpartition(".")
    lines = [_title(fullname), f".. currentmodule:: {module}\n"]
    if kind == "module":
        target = obj.__name__
        lines = [_title(target), f".. automodule:: {target}\n   :members:\n   :no-index:\n"
                 if target != fullname else f".. automodule:: {target}\n   :members:\n"]
    elif kind in ("class", "exception"):
        lines.append(f".. autoclass:: {name}\n   :members:\n   :show-inheritance:\n")
    elif fullname in _REGISTRY_CLASSES:
        lines.append(_registry_page(fullname, name))
    elif kind == "function":
        lines.append(f".. autofunction:: {name}\n")
    else:
        lines.append(f".. autodata:: {name}\n   :no-value:\n")
    return "\n".join(lines)


_REGISTRY_TEXT = {
    "rrule": ("rrule([config,] f, *args, **kwargs)",
              "Look up and run the reverse rule of ``f`` at ``args``: ``None`` when no rule applies, else "
              "``(y, pullback)``, where ``y = f(*args, **kwargs)`` and ``pullback(dy)`` returns ``(df, dx1, ..., "
              "dxn)``, the cotangent of ``f`` itself first, then one per positional argument. Keyword arguments "
              "are passed to the rule and never differentiated."),
    "frule": ("frule([config,] (df, dx1, ..., dxn), f, *args, **kwargs)",
              "Look up and run the forward rule of ``f`` at ``args`` with the tangents ``(df, dx1, ..., dxn)`` "
              "(the tangent of ``f`` itself first): ``None`` when no rule applies, else ``(y, dy)``. Keyword "
              "arguments are passed to the rule and never differentiated."),
}


def _registry_page(fullname: str, name: str) -> str:
    """``rrule``/``frule``: a function to call, and the registry whose methods register and inspect rules."""
    signature, text = _REGISTRY_TEXT[name]
    registry = _REGISTRY_CLASSES[fullname]
    cls = registry.rpartition(".")[2]
    return "\n".join([
        f".. py:function:: {signature}\n",
        textwrap.indent(text, "   ") + "\n",
        "   With a ``config`` first (a :class:`RuleConfig`), only the rules that serve that configuration "
        "are considered, and rules of higher-order functions can call back into the AD framework.\n",
        f"   ``{name}`` is also the registry of these rules: ``{name}.register``, ``{name}.find``, "
        f"``{name}.functions``, ``{name}.signatures``, ``{name}.on_new_rule`` ... are the methods of "
        f"``{cls}`` below.\n",
        _title(f"The registry: {cls}", "-"),
        f".. autoclass:: {registry}\n   :members:\n   :inherited-members:\n",
    ])


def generate_api(srcdir: Path) -> None:
    out = srcdir / "api" / "generated"
    written: set[Path] = set()
    for package, intro, topics in _packages():
        module = importlib.import_module(package)
        public = list(getattr(module, "__all__", []))
        hidden = set(_HIDDEN.get(package, set()))
        if package == "chainrules":  # the re-exported core is documented under chainrules_core
            hidden |= set(importlib.import_module("chainrules_core").__all__)
        placed: set[str] = set()
        sections = []
        for title, names in topics:
            present = [n for n in names if n in public or (n.startswith(package + ".") and _importable(n))]
            placed.update(present)
            if present:
                sections.append((title, present))
        rest = [n for n in public if n not in placed and n not in hidden]
        if rest:
            sections.append(("Other" if sections else "Contents", rest))
        lines = [_title(package), f".. automodule:: {package}\n   :no-members:\n",
                 "" if module.__doc__ else intro + "\n", f".. currentmodule:: {package}\n"]
        pages = []
        for title, names in sections:
            lines.append(_title(title, "-"))
            lines.append(".. autosummary::\n   :nosignatures:\n")
            for name in names:
                fullname = name if name.startswith(package + ".") else f"{package}.{name}"
                lines.append(f"   {fullname.removeprefix(package + '.')}")
                obj = _resolve(fullname)
                page = out / f"{fullname}.rst"
                _write(page, _object_page(fullname, obj))
                written.add(page)
                pages.append(fullname)
            lines.append("")
        lines.append(".. toctree::\n   :hidden:\n")
        lines.extend(f"   {p}" for p in pages)
        lines.append("")
        path = out / f"{package}.rst"
        _write(path, "\n".join(lines))
        written.add(path)
    _prune(out, written)


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _resolve(fullname: str) -> Any:
    with contextlib.suppress(ImportError):
        return importlib.import_module(fullname)
    module, _, name = fullname.rpartition(".")
    return getattr(importlib.import_module(module), name)


# ---- the rule catalogue ---------------------------------------------------------------------------------

PAGES: dict[str, tuple[str, str]] = {
    "elementwise": ("Elementwise functions", "NumPy's ufuncs and elementwise functions, ``math``, ``operator`` "
                                             "and Python's builtins."),
    "reductions": ("Reductions and scans", "Sums, products, means, variances, extrema, cumulative operations, "
                                           "order statistics."),
    "contractions": ("Contractions", "Products, ``einsum``, convolutions, finite differences, quadrature, "
                                     "interpolation and polynomials."),
    "arrays": ("Arrays and indexing", "Shapes, axes, joining and splitting, indexing and gathering, sorting, "
                                      "padding, conversion, creation."),
    "random": ("numpy.random", "Samplers of ``numpy.random`` (the legacy functions and ``RandomState``) and of "
                               "``numpy.random.Generator``: pathwise derivatives given the random state."),
    "linalg": ("numpy.linalg", "NumPy's linear algebra."),
    "scipy.linalg": ("scipy.linalg", "SciPy's dense linear algebra: factorizations, solves, spectral "
                                     "decompositions, matrix functions and equations, special matrices."),
    "scipy.special": ("scipy.special", "SciPy's special functions."),
    "scipy.integrate": ("scipy.integrate", "Quadrature, sample-based integration and initial value problems "
                                           "(higher-order rules: see :doc:`/rules/integrate`)."),
    "scipy.optimize": ("scipy.optimize", "Roots, fixed points, minima, fits and linear programs, by the implicit "
                                         "function theorem (higher-order rules: see :doc:`/rules/optimize`)."),
    "scipy.stats": ("scipy.stats", "SciPy's distributions (their methods, frozen and multivariate ones) and "
                                   "statistics functions."),
    "scipy.sparse": ("scipy.sparse", "Sparse arrays: their methods, and solves."),
    "fft": ("numpy.fft", "NumPy's discrete Fourier transforms, shifts and frequencies."),
    "scipy.fft": ("scipy.fft", "SciPy's Fourier, cosine, sine and Hankel transforms."),
    "scipy.signal": ("scipy.signal", "Convolutions, filters, resampling, spectral estimates, order filters and "
                                     "windows."),
    "scipy.ndimage": ("scipy.ndimage", "Image filters, Fourier filters, rank filters and grey morphology, spline "
                                       "interpolation and geometric transforms, measurements (see "
                                       ":doc:`/rules/ndimage`)."),
    "scipy.interpolate": ("scipy.interpolate", "Piecewise polynomials, cubic interpolators, B-splines and their "
                                               "fits, FITPACK, grid, scattered and radial basis function "
                                               "interpolation: constructors, calls and methods (see "
                                               ":doc:`/rules/interpolate`)."),
    "structured": ("Structured matrices", "The matrix types of :mod:`chainrules.structured`: their constructors "
                                          "and methods."),
    "other": ("Other functions", "Functions the core declares."),
}
"""Catalogue pages: name -> (title, introduction), in the order the index lists them."""

CATEGORY_CLASS = {"frule+rrule": "good", "rrule only": "good", "frule only": "good", "not implemented": "bad",
                  "no samples": "unknown", "non-differentiable": "neutral", "in-place (error)": "neutral"}

COVERAGE_MODULES = ("numpy", "numpy.ndarray", "numpy.linalg", "numpy.fft", "numpy.random", "numpy.random.Generator",
                    "scipy.linalg", "scipy.special", "scipy.fft", "scipy.signal", "scipy.signal.windows",
                    "scipy.integrate", "scipy.optimize", "scipy.ndimage", "scipy.interpolate")
"""The modules (and classes) the coverage page reports on."""


def page_of(entry: Any) -> str:
    """The catalogue page a function's row goes on."""
    name = entry.name
    if name.startswith("scipy."):
        parts = name.split(".")
        return "scipy.sparse" if parts[1] == "sparse" else ".".join(parts[:2])
    if name.startswith("numpy.random."):
        return "random"
    if name.startswith("chainrules.structured") or entry.area.startswith("structured"):
        return "structured"  # the types' own methods, and functions with rules for structured inputs only
    return entry.area if entry.area in PAGES else "other"


def _label(name: str) -> str:
    return "catalogue-" + name


def _module_page(module: str) -> str:
    return module.removeprefix("chainrules.rulesets.")


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ")


def _category_role(category: str) -> str:
    return f":cat-{CATEGORY_CLASS.get(category, 'neutral')}:`{category}`"


_ROLES = "\n".join(f".. role:: cat-{c}\n   :class: catalogue-category catalogue-{c}" for c in
                   ("good", "bad", "unknown", "neutral")) + "\n"


def _source_line(entry: Any, module: str) -> int | None:
    """The first line of the first rule implementation of ``entry`` written in ``module``."""
    for sig in entry.signatures:
        if sig.module != module:
            continue
        obj: Any = importlib.import_module(module)
        for part in sig.implementation.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                break
        code = getattr(getattr(obj, "__wrapped__", obj), "__code__", None)
        if code is not None:
            return int(code.co_firstlineno)
    return None


PAGE_PREFIXES = {"random": "numpy.random.", "linalg": "numpy.linalg.", "scipy.linalg": "scipy.linalg.",
                 "scipy.special": "scipy.special.", "scipy.stats": "scipy.stats.", "scipy.sparse": "scipy.sparse.",
                 "fft": "numpy.fft.", "scipy.fft": "scipy.fft.", "scipy.signal": "scipy.signal.",
                 "scipy.integrate": "scipy.integrate.", "scipy.optimize": "scipy.optimize.",
                 "scipy.ndimage": "scipy.ndimage.", "scipy.interpolate": "scipy.interpolate.",
                 "structured": "chainrules.structured."}
"""The module a page's title names, left out of the names in its rows."""


def _row(entry: Any, page: str) -> list[str]:
    """The four cells of one function's row (reStructuredText)."""
    category = entry.category
    shown = entry.name.removeprefix(PAGE_PREFIXES.get(page, "\0"))
    name = f":py:obj:`{shown} <{entry.name}>`" if shown != entry.name else f":py:obj:`{entry.name}`"
    name_cell = [f".. _{_label(entry.name)}:", "", name, "", _category_role(category)]

    rules = []
    for sig in entry.signatures:
        note = {"non-differentiable": " (non-differentiable)", "in-place": " (raises: in place)",
                "error": " (raises)"}.get(sig.kind, "")
        if sig.config:
            note += f" (config: {sig.config})"
        if set(sig.modes) != {"frule", "rrule"}:
            note = f" ({sig.modes[0]} only)" + note
        rules.append(f"- {_literal('(' + sig.text + ')')}{_rst_escape(note)}")
    if len(rules) == 1:
        rules = [rules[0][2:]]
    if not rules:
        rules = ["-"]

    if entry.arguments:
        groups: dict[str, list[str]] = {}
        for arg in entry.arguments:
            status = arg.status + (" (partly)" if arg.partly else "")
            groups.setdefault(status, []).append(_literal(arg.name))
        args = [f"- {status}: {', '.join(names)}" for status, names in groups.items()]
    elif category == "no samples":
        args = ["*not known: no sample inputs*"]
    elif category in ("non-differentiable", "in-place (error)"):
        args = ["*none*"]
    else:
        args = ["-"]
    notes: list[str] = []
    if entry.not_implemented:
        notes += ["", "*Not implemented, and why:*", ""]
        notes += [f"- {', '.join(_literal(a) for a in arguments)}: {_rst_escape(reason)}"
                  for reason, arguments in entry.not_implemented.items()]
    raises = sorted({s.message for s in entry.signatures if s.kind == "in-place" and s.message})
    if raises:
        notes += ["", "*The rule raises:*", "", *(f"- {_rst_escape(m)}" for m in raises)]
    if entry.problems:
        notes += ["", "*Running the rules at the samples:*", "", *(f"- {_rst_escape(p)}" for p in entry.problems[:2])]

    source = []
    for module in entry.rulesets:
        line = _source_line(entry, module)
        short = _module_page(module)
        anchor = f"#L-{line}" if line else "#source"
        source.append(f"- :doc:`{short} <rulesets/{short}>` (`source <rulesets/{short}.html{anchor}>`__)")
    return ["\n".join(name_cell), "\n".join(rules), "\n".join(args + notes), "\n".join(source) or "-"]


def _table(rows: list[list[str]]) -> str:
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 22 26 37 15", "   :class: catalogue-table", "",
             "   * - Function", "     - Rules: arguments accepted", "     - Arguments, and what is not implemented",
             "     - Registered in"]
    for cells in rows:
        for i, cell in enumerate(cells):
            head = "   * - " if i == 0 else "     - "
            body = textwrap.indent(cell, " " * 7).lstrip() if cell else "-"
            lines.append(head + body)
    return "\n".join(lines) + "\n"


def _counts_table(header: list[str], rows: list[list[str]], fixed: int = 2) -> str:
    """A table of counts; the count columns after the first ``fixed`` ones that are 0 in every row are left out."""
    keep = [i for i in range(len(header))
            if i < fixed or any(row[i].strip("*") not in ("0", "") for row in rows)]
    header = [header[i] for i in keep]
    rows = [[row[i] for i in keep] for row in rows]
    lines = [".. list-table::", "   :header-rows: 1", "   :class: catalogue-counts", ""]
    for row in [header, *rows]:
        lines.append("   * - " + row[0])
        lines.extend("     - " + cell for cell in row[1:])
    return "\n".join(lines) + "\n"


def generate_catalogue(srcdir: Path, with_source: bool = True) -> None:
    import chainrules
    from chainrules.catalogue import RULE_CATEGORIES, entries

    out = srcdir / "catalogue"
    probe = not os.environ.get("CHAINRULES_DOCS_NO_PROBE")
    found = entries(probe=probe)
    by_page: dict[str, list[Any]] = {}
    for entry in found:
        by_page.setdefault(page_of(entry), []).append(entry)
    written: set[Path] = set()

    # one page per family / SciPy module: a section per ruleset module, a row per function
    for page, (title, intro) in PAGES.items():
        group = by_page.get(page, [])
        if not group:
            continue
        lines = [_ROLES, _title(title), intro + "\n", _summary_sentence(group) + "\n"]
        sections: dict[str, list[Any]] = {}
        for entry in group:
            sections.setdefault(entry.rulesets[0] if entry.rulesets else "", []).append(entry)
        if len(sections) > 1:
            links = [f"`{_module_page(m)}`_" if m else "`Registered by the core`_" for m in sorted(sections)]
            lines.append("By ruleset module: " + ", ".join(links) + ".\n")
        for module in sorted(sections):
            heading = f"{_module_page(module)}" if module else "Registered by the core"
            lines.append(_title(heading, "-"))
            if module:
                doc = _first_line(inspect.getdoc(importlib.import_module(module)))
                lines.append(f"{doc} See :doc:`rulesets/{_module_page(module)}`.\n" if doc else
                             f"See :doc:`rulesets/{_module_page(module)}`.\n")
            lines.append(_table([_row(e, page) for e in sections[module]]))
        path = out / f"{page}.rst"
        _write(path, "\n".join(lines))
        written.add(path)

    # one page per ruleset module: its docstring, the functions it registers, its source
    modules: dict[str, list[Any]] = {}
    for entry in found:
        for module in entry.rulesets:
            modules.setdefault(module, []).append(entry)
    for module, group in modules.items():
        path = out / "rulesets" / f"{_module_page(module)}.rst"
        _write(path, _ruleset_page(module, group, with_source))
        written.add(path)

    path = out / "coverage.rst"
    _write(path, _coverage_page())
    written.add(path)

    # the index: what the columns mean, and the counts per page
    header = ["Page", "functions", *RULE_CATEGORIES]
    rows = []
    for page, (title, _) in PAGES.items():
        group = by_page.get(page, [])
        if group:
            tally = Counter(e.category for e in group)
            rows.append([f":doc:`{title} <{page}>`", str(len(group)), *(str(tally.get(c, 0)) for c in
                                                                         RULE_CATEGORIES)])
    total = Counter(e.category for e in found)
    rows.append(["**total**", f"**{len(found)}**", *(f"**{total.get(c, 0)}**" for c in RULE_CATEGORIES)])
    index = [_ROLES, _title("Rule catalogue"), CATALOGUE_INTRO.format(version=chainrules.__version__,
                                                                         probed="" if probe else PROBE_OFF),
             _counts_table(header, rows), CATEGORY_TEXT, ".. toctree::\n   :maxdepth: 1\n   :hidden:\n"]
    index.extend(f"   {page}" for page in PAGES if by_page.get(page))
    index.append("   coverage\n")
    index.append("   rulesets/index\n")
    path = out / "rulesets" / "index.rst"
    _write(path, _rulesets_index(sorted(modules)))
    written.add(path)
    path = out / "index.rst"
    _write(path, "\n".join(index))
    written.add(path)
    _prune(out, written)


CATALOGUE_INTRO = """\
Every function chainrules has rules for, read from the rule registries when this site was
built (chainrules {version}). One page per family of NumPy functions and per SciPy module;
one row per function:

Function
    Its name (linked to its NumPy, SciPy or Python documentation) and its category (below).
Rules
    The argument types each registration accepts (optional arguments in brackets; a bare
    name accepts any type). Each is an ``frule`` and an ``rrule`` unless it says otherwise.
Arguments
    At the function's sample inputs, which arguments the rules differentiate, which get
    ``NoTangent()`` (integers, flags, indices), and what is ``not_implemented`` and why.
Registered in
    The ruleset module: its documentation (the conventions and the maths) and the source of
    the rule.

The arguments column comes from calling each rule at the sample inputs its function
declares (:func:`chainrules_core.sample_inputs`) with random tangents: no finite
differences (``chainrules check`` compares every rule with finite differences; the test
suite runs it). ``chainrules coverage MODULE`` reads the same data: see
:doc:`coverage`. In the table, a category no page has gets no column.{probed}

"""

PROBE_OFF = """

.. warning::

   This build did not run the rules at their samples (``CHAINRULES_DOCS_NO_PROBE`` was set):
   every function with rules shows as "no samples".
"""

CATEGORY_TEXT = """\
The categories:

``frule+rrule``, ``rrule only``, ``frule only``
    At some sample, the rule gives some argument a derivative.
``not implemented``
    Rules are registered, but every derivative they give is ``not_implemented(...)``: an
    honest "not written yet", never a silent zero. Not coverage.
``no samples``
    Rules are registered but declare no sample inputs yet, so what they do is not known.
``non-differentiable``
    The outputs are integers or booleans, or do not depend on the arguments' values: every
    cotangent is ``NoTangent()``.
``in-place (error)``
    The function writes into an array it was given: its rule raises an error that says what
    to call instead.

"""


def _rulesets_index(modules: list[str]) -> str:
    lines = [_title("Ruleset modules"),
             "The modules of ``chainrules.rulesets`` that register rules: each page has the module's "
             "documentation (its conventions and the maths, with their sources), the functions it has rules for, "
             "and its source code.\n"]
    areas: dict[str, list[str]] = {}
    for module in modules:
        areas.setdefault(_module_page(module).split(".")[0], []).append(module)
    for area, names in areas.items():
        lines.append(_title(area, "-"))
        for module in names:
            doc = _first_line(inspect.getdoc(importlib.import_module(module)))
            lines.append(f"- :doc:`{_module_page(module)}`: {doc}" if doc else f"- :doc:`{_module_page(module)}`")
        lines.append("")
    lines.append(".. toctree::\n   :hidden:\n")
    lines.extend(f"   {_module_page(m)}" for m in modules)
    return "\n".join(lines) + "\n"


def _summary_sentence(group: list[Any]) -> str:
    tally = Counter(e.category for e in group)
    parts = [f"{n} {c}" for c, n in sorted(tally.items(), key=lambda p: -p[1])]
    return f"{len(group)} functions: " + ", ".join(parts) + "."


def _ruleset_page(module: str, group: list[Any], with_source: bool = True) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    mod = importlib.import_module(module)
    source_path = Path(inspect.getsourcefile(mod) or "")
    # the docstring itself, not automodule: autodoc would parse the whole module's source for nothing
    doc = inspect.getdoc(mod) or ""
    relative = source_path.as_posix().split("/chainrules/", 1)[-1]
    lines = [_title(module), f".. py:module:: {module}\n",
             f".. The docstring of chainrules/{relative} follows: a warning about it is fixed there.\n", doc + "\n"]
    lines.append(_title("Functions with rules here", "-"))
    lines.append("Each links to its row in the catalogue.\n")
    for entry in sorted(group, key=lambda e: e.name):
        line = _source_line(entry, module)
        where = f" (`source <#L-{line}>`__)" if line else ""
        lines.append(f"- :ref:`{entry.name} <{_label(entry.name)}>`: {entry.category}{where}")
    lines.append("")
    lines.append(_title("Source", "-"))
    lines.append(f"``chainrules/{relative}``\n")
    if not with_source:
        lines.append("(The source is shown in the HTML build.)")
    elif source_path.exists():
        code = highlight(source_path.read_text(encoding="utf-8"), PythonLexer(),
                         HtmlFormatter(linenos="inline", lineanchors="L", anchorlinenos=True))
        lines.append(".. raw:: html\n")
        lines.append(textwrap.indent(f'<div class="catalogue-source">{code}</div>', "   "))
    return "\n".join(lines) + "\n"


def _coverage_page() -> str:
    from chainrules.catalogue import CATEGORIES
    from chainrules.coverage import entries_of

    lines = [_ROLES, _title("Coverage"), COVERAGE_INTRO]
    reports = {}
    for module in COVERAGE_MODULES:
        try:
            reports[module] = entries_of(module)
        except ValueError:
            continue
    header = ["Module", "public", *CATEGORIES]
    rows = []
    for module, found in reports.items():
        tally = Counter(c for c, _ in found.values())
        rows.append([f"`{module}`_", str(len(found)), *(str(tally.get(c, 0)) for c in CATEGORIES)])
    lines.append(_counts_table(header, rows))
    for module, found in reports.items():
        lines.append(_title(module, "-"))
        for category in CATEGORIES:
            names = sorted(n for n, (c, _) in found.items() if c == category)
            if not names:
                continue
            links = []
            for name in names:
                entry = found[name][1]
                links.append(f":ref:`{name} <{_label(entry.name)}>`" if entry.has_rules else _literal(name))
            lines.append(f"{_category_role(category)} ({len(names)})\n    {', '.join(links)}\n")
        lines.append("")
    return "\n".join(lines) + "\n"


COVERAGE_INTRO = """\
Which public functions of NumPy and SciPy modules have rules, as ``chainrules coverage
MODULE`` reports it (the same data as the :doc:`catalogue <index>`). Classes are left out;
for a class (``numpy.ndarray``, ``numpy.random.Generator``) its public methods are counted.
``not numeric`` functions need no rule (printing, files, configuration, dates); ``not
covered`` ones are numeric functions still without rules; the other categories are those
of the :doc:`catalogue <index>`. A category no module has gets no column. ``scipy.stats``
is not on this page: its distributions are objects whose methods are reported one
(distribution, method) pair at a time, by ``chainrules coverage scipy.stats`` (see
:doc:`/cli`).

"""


# ---- the command line's help ----------------------------------------------------------------------------

def generate_cli(srcdir: Path) -> None:
    from chainrules.__main__ import COMMANDS, build_parser

    out = srcdir / "_generated"
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"  # argparse wraps the help to the terminal's width: make it a fixed one
    try:
        _generate_cli(out, build_parser("chainrules"), COMMANDS)
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns


def _generate_cli(out: Path, parser: Any, commands: Any) -> None:
    _write(out / "cli-help.txt", parser.format_help())
    subparsers = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for command in commands:
        if command == "check":
            from chainrules.testing.checker import main as check_main

            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), contextlib.suppress(SystemExit):
                check_main(["--help"], prog="chainrules check")
            text = buffer.getvalue()
        else:
            text = subparsers.choices[command].format_help()
        _write(out / f"cli-{command}.txt", text)
    for args in (["demo"], ["list", "cholesky"], ["list", "fft"], ["coverage", "numpy.linalg"],
                 ["coverage", "scipy.stats.gamma"], ["coverage", "nump"]):
        _write(out / f"cli-run-{'-'.join(args).replace('.', '-')}.txt", _run_cli(args))


def _run_cli(args: list[str]) -> str:
    """What ``chainrules ARGS`` prints (standard output and error), with the exit code if not 0."""
    from chainrules.__main__ import main

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        code = main(args, prog="chainrules")
    text = buffer.getvalue()
    return text if code == 0 else text + f"(exit code {code})\n"


# ---- the toctree of the rule families --------------------------------------------------------------------

FAMILY_ORDER = ("elementwise", "reductions", "contractions", "arrays", "linalg", "matrix-functions", "linalg-extras",
                "special", "fft", "signal", "ndimage", "interpolate")
"""The order of the pages of ``docs/rules/``; a page not named here comes after them (alphabetically)."""


def generate_rules_toctree(srcdir: Path) -> None:
    pages = sorted(p.stem for p in (srcdir / "rules").glob("*.md") if p.stem != "index")
    order = {name: i for i, name in enumerate(FAMILY_ORDER)}
    pages.sort(key=lambda name: (order.get(name, len(order)), name))
    lines = ["```{toctree}", ":maxdepth: 1", "", *pages, "```", ""]
    _write(srcdir / "_generated" / "rules-toctree.md", "\n".join(lines))


# ---- the extension --------------------------------------------------------------------------------------

def _generate(app: Sphinx) -> None:
    srcdir = Path(app.srcdir)
    generate_cli(srcdir)
    generate_rules_toctree(srcdir)
    generate_api(srcdir)
    generate_catalogue(srcdir, with_source=app.builder.format == "html")


def _trim_code_blocks(app: Sphinx, doctree: nodes.document) -> None:
    """Drop the blank lines that end the guides' examples (doctests need them; readers do not)."""
    for node in doctree.findall(nodes.literal_block):
        if len(node.children) == 1 and isinstance(node.children[0], nodes.Text):
            text = node.astext()
            trimmed = re.sub(r"\s+\Z", "", text)
            if trimmed != text:  # rawsource too: Sphinx highlights a block only when the two agree
                node.children[0] = nodes.Text(trimmed)
                node.rawsource = trimmed


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _generate)
    app.connect("doctree-read", _trim_code_blocks)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
