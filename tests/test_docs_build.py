"""The documentation site builds with every Sphinx warning an error.

Sphinx's ``dummy`` builder reads every page and every docstring the site pulls in (the
guides through MyST, the API reference through autodoc and numpydoc, the rule catalogue
and the ruleset modules' documentation through the site's own extension), resolves the
references and the toctree, and writes no HTML. A broken docstring, a page no toctree
includes or a reference to a page that does not exist fails this test. ``nox -s docs``
builds the HTML the same way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sphinx.util.inventory import InventoryFile

import chainrules

PACKAGE_ROOT = Path(chainrules.__file__).resolve().parent.parent
REPOSITORY = Path(__file__).resolve().parent.parent
DOCS = REPOSITORY / "docs"


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    # a copy, so the pages generated at build time do not land in the working tree
    shutil.copytree(DOCS, tmp_path / "docs",
                    ignore=shutil.ignore_patterns("_build", "_generated", "generated", "catalogue"))
    shutil.copy(REPOSITORY / "CHANGELOG.md", tmp_path / "CHANGELOG.md")
    env = dict(os.environ, CHAINRULES_DOCS_OFFLINE="1",  # intersphinx from docs/_inventories, never the network
               PYTHONPATH=os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")])))
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "dummy", "-d", str(tmp_path / "doctrees"),
         str(tmp_path / "docs"), str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert result.returncode == 0, f"the documentation does not build cleanly:\n{result.stderr[-6000:]}"
    generated = tmp_path / "docs" / "catalogue"
    assert (generated / "index.rst").exists() and (generated / "coverage.rst").exists()
    assert "numpy.linalg.cholesky" in (generated / "linalg.rst").read_text()


def test_the_shipped_inventories_link_numpy_scipy_and_python():
    expected = {
        "numpy": ("numpy.linalg.cholesky", "https://numpy.org/doc/stable/reference/generated/numpy.linalg.cholesky.html"
                                           "#numpy.linalg.cholesky"),
        "scipy": ("scipy.linalg.expm", "https://docs.scipy.org/doc/scipy/reference/generated/scipy.linalg.expm.html"
                                       "#scipy.linalg.expm"),
        "python": ("math.sin", "https://docs.python.org/3/library/math.html#math.sin"),
    }
    for name, (obj, url) in expected.items():
        base = url.split("reference/" if name != "python" else "library/")[0]
        with open(DOCS / "_inventories" / f"{name}.inv", "rb") as stream:
            inventory = InventoryFile.load(stream, base, lambda base, uri: base + uri)
        found = {key: value for table in inventory.values() for key, value in table.items()}
        uri = getattr(found[obj], "uri", None) or found[obj][2]  # a named item from Sphinx 8.2, a tuple before
        assert uri == url, (obj, uri)
