"""Tests of the command line, ``chainrules`` / ``python -m chainrules``: every subcommand."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import chainrules
import chainrules_core
from chainrules.__main__ import COMMANDS, MAINTAINER_COMMANDS, main, program_name
from chainrules.testing.checker import function_name
from chainrules_core import NoTangent, Sample, frule, rrule, sample_inputs

ROOT = Path(chainrules.__file__).resolve().parent.parent


def _run(*args: str, argv0: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh interpreter: ``python -m chainrules ARGS``, or run under the name argv0."""
    if argv0 is None:
        command = [sys.executable, "-m", "chainrules", *args]
    else:  # what the installed script does, with sys.argv[0] its path
        code = (f"import sys; sys.argv[0] = {argv0!r}; from chainrules.__main__ import main; "
                "sys.exit(main())")
        command = [sys.executable, "-c", code, *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


# ---- --help, the program's name, --version -------------------------------------------------------

def test_help_lists_every_users_command(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"], prog="chainrules")
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: chainrules [-h] [--version] {demo,list,check,coverage} ...")
    for command, text in COMMANDS.items():
        assert re.search(rf"^\s+{command}\s+{re.escape(text.split()[0])}", out, re.MULTILINE), command
    for command in MAINTAINER_COMMANDS:  # a maintainer's tool: it works, users' help does not list it
        assert command not in out


def test_help_uses_the_name_the_program_was_run_as():
    as_module = _run("--help")
    assert as_module.returncode == 0
    assert as_module.stdout.startswith("usage: python -m chainrules [-h]")
    assert "Run `python -m chainrules COMMAND --help`" in as_module.stdout
    as_script = _run("--help", argv0="/home/me/.venv/bin/chainrules")
    assert as_script.returncode == 0
    assert as_script.stdout.startswith("usage: chainrules [-h]")
    assert "python -m" not in as_script.stdout


@pytest.mark.parametrize(("argv0", "name"), [
    ("/usr/lib/python3/site-packages/chainrules/__main__.py", "python -m chainrules"),
    ("/home/me/.venv/bin/chainrules", "chainrules"),
    ("C:\\venv\\Scripts\\chainrules.exe".replace("\\", "/"), "chainrules"),
    ("", "python -m chainrules"),
])
def test_program_name(argv0, name):
    assert program_name(argv0) == name


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"chainrules {chainrules.__version__}\n"
    assert chainrules.__version__ == chainrules_core.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", chainrules.__version__)


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "chainrules_core.__version__" }' in pyproject
    assert f"## [{chainrules.__version__}]" in (ROOT / "CHANGELOG.md").read_text()


def test_a_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'no-such-command'" in capsys.readouterr().err


# ---- demo -------------------------------------------------------------------------------------------

def test_demo_checks_each_derivative_and_prints_matrices_aligned(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"chainrules {chainrules.__version__}: derivatives through rules")
    assert out.count("  OK") == 6 and "MISMATCH" not in out
    assert out.rstrip().endswith("all derivatives match their finite differences")
    lines = out.splitlines()
    # the 3x3 cotangent of det: every row starts in the same column, under the first row
    first = next(i for i, line in enumerate(lines) if "rule:" in line and "[[" in line
                 and i > next(k for k, t in enumerate(lines) if "det(A)" in t))
    rows = lines[first:first + 3]
    columns = {row.index("[", 0 if k else row.index("[[") + 1) for k, row in enumerate(rows)}
    assert len(columns) == 1, rows
    assert rows[1].strip().startswith("[") and rows[2].rstrip().endswith("]]")


# ---- list ---------------------------------------------------------------------------------------------

def test_list_shows_the_signatures_of_matching_functions(capsys):
    assert main(["list", "linalg.cholesky"]) == 0
    out = capsys.readouterr().out
    assert "frule rrule  numpy.linalg.cholesky(a: ndarray)\n" in out
    assert "frule rrule  scipy.linalg.cholesky(a: ndarray, [lower: bool, overwrite_a: bool, check_finite: bool])" in out
    assert out.rstrip().endswith("3 functions, 7 signatures")


def test_list_marks_declarations_and_matches_case_insensitively(capsys):
    assert main(["list", "ARGSORT"]) == 0
    out = capsys.readouterr().out
    assert "numpy.argsort(" in out and "[non-differentiable]" in out


def test_list_without_a_match_says_why_and_what_exists(capsys, monkeypatch):
    import chainrules.__main__ as cli

    # a module of the list that has no rules (the real ones gain rules as families land)
    monkeypatch.setattr(cli, "_MODULES_WITHOUT_RULES", (*cli._MODULES_WITHOUT_RULES, "scipy.nothing_here"))
    assert main(["list", "nothing_here"], prog="chainrules") == 1
    out = capsys.readouterr().out
    assert out.startswith("No function with rules has a name containing 'nothing_here'.\n")
    assert "scipy.nothing_here has no rules yet: `chainrules coverage scipy.nothing_here` lists its functions." in out
    assert re.search(r"Functions with rules, by module: .*\bnumpy \(\d+\)", out)
    assert "numpy.linalg (" in out and "scipy.linalg (" in out


def test_list_everything(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "numpy.sin(x: Number | ndarray)" in out
    assert re.search(r"\n\d{3,} functions, \d{3,} signatures\n$", out)


# ---- check --------------------------------------------------------------------------------------------

def _wrong_double(x):
    return 2 * x


@rrule.register(_wrong_double, float)
def _wrong_double_rrule(x):
    def wrong_double_pullback(dy):
        return NoTangent(), 3 * dy  # wrong on purpose: 2 * dy is right
    return _wrong_double(x), wrong_double_pullback


@frule.register(_wrong_double, float)
def _wrong_double_frule(tangents, x):
    return _wrong_double(x), 2 * tangents[1]


@sample_inputs(_wrong_double)
def _wrong_double_samples():
    yield Sample(1.5)


def test_check_passes_for_correct_rules(capsys):
    assert main(["check", "numpy.sin", "numpy.arctan2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    table = out.strip().splitlines()
    assert table[-3].split() == ["module", "functions", "passed", "failed", "not", "implemented", "skipped"]
    assert table[-1].split()[:4] == ["total", "2", str(int(table[-1].split()[2])), "0"]
    assert int(table[-1].split()[2]) > 0


def test_check_fails_for_a_wrong_rule_and_names_it(capsys):
    assert main(["check", function_name(_wrong_double), "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"FAILED +\S*_wrong_double \[rrule\] at 1\.5", out)
    assert "cotangent of argument 1 ('x'): arrays differ" in out
    assert re.search(r"\ntotal +1 +\d+ +[12] ", out)


def test_check_help_and_an_unknown_target(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--help"], prog="chainrules")
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("usage: chainrules check [-h]")
    assert main(["check", "numpy.no_such_function", "--no-progress"]) == 2
    assert "names no function with rules" in capsys.readouterr().err


# ---- coverage (more in test_coverage.py) ---------------------------------------------------------------

def test_coverage_prints_the_categories_and_the_counts(capsys):
    assert main(["coverage", "numpy.linalg"]) == 0
    out = capsys.readouterr().out
    assert "non-differentiable (1):\n  matrix_rank" in out
    assert re.search(r"\nfrule\+rrule: \d+, rrule only: \d+, .*; total 3\d\n$", out)


def test_coverage_of_an_unknown_module_is_one_line_not_a_traceback():
    result = _run("coverage", "nump")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("python -m chainrules coverage: error: 'nump' is not a module or a class")


# ---- index (maintainers) --------------------------------------------------------------------------------

def test_index_is_there_for_maintainers(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["index", "--help"], prog="chainrules")
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: chainrules index [-h] [--write] [--check]")
    # `python -m chainrules index --check` itself runs in tests/chainrules/rulesets/test_lazy_index.py
