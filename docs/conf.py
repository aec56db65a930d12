"""Sphinx configuration of the chainrules documentation.

Build with ``nox -s docs`` (HTML, warnings are errors) or by hand, from the repository root::

    PYTHONPATH=. python -m sphinx -W --keep-going -b html docs docs/_build/html

The rule catalogue (``docs/catalogue/``), the API reference pages (``docs/api/generated/``)
and the command line's help (``docs/_generated/``) are generated at build time by the local
extension ``docs/_ext/chainrules_docs.py`` from the package itself; they are not committed.

Links to NumPy, SciPy and Python (intersphinx) use each project's published inventory when
the network answers, else the inventories shipped in ``docs/_inventories/``, which
``python docs/_ext/inventories.py`` builds offline from the installed NumPy, SciPy and
Python (their URLs follow each project's documented layout).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE / "_ext"))

import chainrules  # noqa: E402

project = "chainrules"
author = "chainrules developers"
copyright = "2026, chainrules developers"
version = release = chainrules.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "chainrules_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_inventories", "_ext", "_generated", "_templates", "conftest.py", "Thumbs.db",
                    ".DS_Store"]
templates_path = ["_templates"]
default_role = "py:obj"
nitpicky = False

# ---- MyST: the Markdown guides (their examples run as doctests in the test suite) ------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# ---- API reference ---------------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc sections say the types; signatures stay short
autodoc_preserve_defaults = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False
numpydoc_xref_param_type = False

# ---- links to NumPy, SciPy, Python -----------------------------------------------------------------
INVENTORIES = HERE / "_inventories"


def _inventory(name: str, url: str) -> tuple[str, tuple[str | None, ...]]:
    """The published inventory first, the shipped one when the network does not answer."""
    local = INVENTORIES / f"{name}.inv"
    if os.environ.get("CHAINRULES_DOCS_OFFLINE"):
        return url, (str(local),)
    return url, (None, str(local)) if local.exists() else (None,)


intersphinx_mapping = {
    "python": _inventory("python", "https://docs.python.org/3/"),
    "numpy": _inventory("numpy", "https://numpy.org/doc/stable/"),
    "scipy": _inventory("scipy", "https://docs.scipy.org/doc/scipy/"),
}
intersphinx_timeout = 10

# ---- HTML ------------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"chainrules {release}"
html_static_path = ["_static"]
html_css_files = ["chainrules.css"]
html_show_sourcelink = False
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # the catalogue's wide tables and listings get the room of the right-hand sidebar
    "secondary_sidebar_items": {"*": ["page-toc"], "rules/*": ["page-toc"], "api/*": ["page-toc"],
                                "api/generated/*": ["page-toc"], "catalogue/*": [], "catalogue/rulesets/*": []},
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_context = {"default_mode": "auto"}
# pages with no section to navigate get no left-hand sidebar
html_sidebars: dict[str, list[str]] = {page: [] for page in ("index", "cli", "changelog", "development")}
pygments_style = "sphinx"
