"""Developer sessions: ``nox -s tests lint typecheck docs bench``."""

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite (unit tests, rule tests, doctests of the code and the docs)."""
    session.install(".[test]")
    session.run("python", "-m", "pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the code, the tests, the benchmarks and the examples."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", "chainrules", "chainrules_core", "tests", "benchmarks", "examples", "noxfile.py")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy over the two packages."""
    session.install(".[test]", "mypy>=1.8")
    session.run("mypy")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site (HTML, every warning an error) after running every example in it.

    The site lands in ``docs/_build/html``. ``nox -s docs -- --offline`` takes NumPy's, SciPy's
    and Python's inventories from ``docs/_inventories`` instead of the network.
    """
    session.install(".[docs]")
    session.run("python", "-m", "pytest", "docs", "README.md", "-q")
    env = {"CHAINRULES_DOCS_OFFLINE": "1"} if "--offline" in session.posargs else {}
    session.run("python", "-m", "sphinx", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html", env=env)


@nox.session
def bench(session: nox.Session) -> None:
    """The side-by-side benchmarks (pytest-benchmark); ratios are printed at the end.

    The JAX and PyTorch columns need those frameworks (extras ``jax`` and ``torch``; PyTorch's
    CPU build is the one to install); without them those columns skip with the reason.
    """
    session.install(".[bench,jax]")
    session.run("python", "-m", "pytest", "benchmarks", "--benchmark-only", "-q", *session.posargs)
