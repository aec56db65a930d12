"""Import-time registration: entry-point plugins and a user's own rule modules.

Two small packages under ``tests/plugins`` are really installed with pip into a temporary
directory; a fresh Python process with that directory on ``PYTHONPATH`` then imports
chainrules, as a user with those packages installed would.
"""

import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from chainrules import PLUGIN_GROUP, frule, rrule
from chainrules.testing import test_frule, test_rrule

PLUGINS = Path(__file__).parents[1] / "plugins"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A directory holding the example plugin and the broken plugin, installed by pip."""
    work = tmp_path_factory.mktemp("plugins")
    sources = []
    for name in ("chainrules_example_plugin", "chainrules_broken_plugin"):
        shutil.copytree(PLUGINS / name, work / name)  # build outside the repository
        sources.append(str(work / name))
    target = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "--no-input", "--target", str(target), *sources],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"
    return target


def run_python(code, site, **environment):
    """Run ``code`` in a fresh interpreter with ``site`` on the path; return what it prints as JSON."""
    env = {k: v for k, v in os.environ.items() if k not in ("CHAINRULES_NO_PLUGINS", "PYTEST_CURRENT_TEST")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(environment)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, f"the subprocess failed:\n{done.stdout}\n{done.stderr}"
    return json.loads(done.stdout.strip().splitlines()[-1])


PROBE = """
    import json, sys, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import chainrules
    import numpy as np
    loaded_at_import = "chainrules_example_plugin.chainrules_rules" in sys.modules
    import chainrules_example_plugin as plugin
    report = {
        "loaded_at_import": loaded_at_import,
        "plugins": sorted(chainrules.loaded_plugins()),
        "rrule": chainrules.rrule.find(plugin.logcosh, np.ndarray) is not None,
        "callable_entry_point": chainrules.rrule.find(plugin.halve, float) is not None,
        "warnings": [(w.category.__name__, str(w.message)) for w in caught],
    }
    from importlib.metadata import entry_points  # the reference the fast scan must agree with
    from chainrules._plugins import declared_entry_points
    report["scan"] = sorted(declared_entry_points())
    report["importlib.metadata"] = sorted((ep.name, ep.value) for ep in entry_points(group=chainrules.PLUGIN_GROUP))
    if report["rrule"]:
        from chainrules.testing import test_rrule, test_frule
        x = np.array([-1.5, 0.25, 2.0])
        test_rrule(plugin.logcosh, x)
        test_frule(plugin.logcosh, x)
        test_rrule(plugin.halve, 3.0)
        report["tested"] = True
    print(json.dumps(report))
"""


def test_installed_plugin_rules_are_registered_by_import_chainrules(site):
    report = run_python(PROBE, site)
    assert report["loaded_at_import"]  # nobody imported the plugin but chainrules
    assert report["plugins"] == ["example", "example_callable"]
    assert report["rrule"] and report["callable_entry_point"]
    assert report["tested"]  # the plugin's rules pass the finite-difference testers
    assert report["scan"] == report["importlib.metadata"] == [
        ["broken", "chainrules_broken_plugin.rules"], ["example", "chainrules_example_plugin.chainrules_rules"],
        ["example_callable", "chainrules_example_plugin.callable_rules:register"]]


def test_plugins_can_be_switched_off(site):
    report = run_python(PROBE, site, CHAINRULES_NO_PLUGINS="1")
    assert not report["loaded_at_import"]
    assert report["plugins"] == []
    assert not report["rrule"] and not report["callable_entry_point"]
    assert report["warnings"] == []  # the broken plugin was not even tried
    report = run_python(PROBE, site, CHAINRULES_NO_PLUGINS="0")  # "0" does not switch them off
    assert report["rrule"]


def test_plugins_can_then_be_loaded_on_request(site):
    report = run_python("""
        import json
        import chainrules
        import numpy as np
        import chainrules_example_plugin as plugin
        before = chainrules.rrule.find(plugin.logcosh, np.ndarray) is not None
        chainrules.load_plugins()
        after = chainrules.rrule.find(plugin.logcosh, np.ndarray) is not None
        print(json.dumps([before, after, sorted(chainrules.loaded_plugins())]))
    """, site, CHAINRULES_NO_PLUGINS="1")
    assert report == [False, True, ["example", "example_callable"]]


def test_a_broken_plugin_is_a_warning_and_import_still_works(site):
    report = run_python(PROBE, site)
    broken = [message for category, message in report["warnings"] if category == "PluginLoadWarning"]
    assert len(broken) == 1
    assert "'broken'" in broken[0] and "chainrules_broken_plugin.rules" in broken[0]
    assert "RuntimeError: this plugin is deliberately broken" in broken[0]
    assert report["rrule"]  # the other plugins were still loaded
    assert "broken" not in report["plugins"]


def test_a_broken_plugin_can_be_made_an_error_while_developing(site):
    # The filter docs/plugins.md recommends: on the message, installed before chainrules is imported.
    env = {k: v for k, v in os.environ.items() if k != "CHAINRULES_NO_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run([sys.executable, "-W", "error:chainrules plugin", "-c", "import chainrules"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode != 0
    assert "PluginLoadWarning: chainrules plugin 'broken'" in done.stderr


def test_plugin_group_name():
    assert PLUGIN_GROUP == "chainrules.rulesets"


def test_a_users_own_module_registers_rules_by_being_imported(tmp_path, monkeypatch):
    module_name = "my_rules_for_chainrules_test"
    (tmp_path / f"{module_name}.py").write_text(textwrap.dedent('''
        import numpy as np
        from chainrules import NoTangent, ProjectTo, frule, rrule, unthunk

        def scaled_tanh(x):
            return 3.0 * np.tanh(x)

        @rrule.register(scaled_tanh, np.ndarray)
        def scaled_tanh_rrule(x):
            project_x = ProjectTo(x)
            def scaled_tanh_pullback(dy):
                return NoTangent(), project_x(3.0 * (1 - np.tanh(x) ** 2) * unthunk(dy))
            return scaled_tanh(x), scaled_tanh_pullback

        @frule.register(scaled_tanh, np.ndarray)
        def scaled_tanh_frule(tangents, x):
            return scaled_tanh(x), 3.0 * (1 - np.tanh(x) ** 2) * tangents[1]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(module_name)
    try:
        assert rrule.find(module.scaled_tanh, np.ndarray) is module.scaled_tanh_rrule
        assert frule.find(module.scaled_tanh, np.ndarray) is module.scaled_tanh_frule
        x = np.array([0.5, -1.0])
        test_rrule(module.scaled_tanh, x)
        test_frule(module.scaled_tanh, x)
    finally:
        sys.modules.pop(module_name, None)
