"""Lazy loading under concurrency: every interleaving gives the single-threaded answer.

Each case runs in a fresh interpreter (nothing loaded yet), where threads start together
behind a barrier and do, at the same time: lookups of functions whose rulesets are not
imported yet, ``functions()``, ``signatures()``, ``find()``, ``on_new_rule()``, and the
registration of new rules. The answers are compared with what one thread gets.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent('''
    import json, random, sys, threading
    import numpy as np
    import scipy.linalg
    import chainrules
    from chainrules import frule, rrule, NoTangent

    seed = int(sys.argv[1])
    order = random.Random(seed)
    LOOKED_UP = [np.linalg.det, np.sin, np.linalg.cholesky, scipy.linalg.expm, np.sum, np.linalg.eigh,
                 np.concatenate, np.cumsum, np.einsum, scipy.linalg.solve_triangular]
    ARGS = {np.linalg.det: (np.eye(2),), np.sin: (0.5,), np.linalg.cholesky: (np.eye(2),),
            scipy.linalg.expm: (np.eye(2),), np.sum: (np.ones(3),), np.linalg.eigh: (np.eye(2),),
            np.concatenate: ([np.ones(2), np.ones(2)],), np.cumsum: (np.ones(3),),
            np.einsum: ("ij->", np.ones((2, 2))), scipy.linalg.solve_triangular: (np.eye(2), np.ones(2))}
    misses, errors, seen_by_hook = [], [], []
    barrier = threading.Barrier(8)

    def lookups():
        barrier.wait()
        for _ in range(50):
            f = order.choice(LOOKED_UP)
            try:
                if rrule(f, *ARGS[f]) is None or frule((NoTangent(), *ARGS[f]), f, *ARGS[f]) is None:
                    misses.append(getattr(f, "__name__", str(f)))
            except Exception as err:
                errors.append(repr(err))

    def listing():
        barrier.wait()
        listed = set(rrule.functions())
        if not set(LOOKED_UP) <= listed:
            misses.append("functions() is missing some")

    def introspection():
        barrier.wait()
        for f in LOOKED_UP:
            if not rrule.signatures(f) or rrule.find(f, *(type(a) for a in ARGS[f])) is None:
                misses.append("signatures/find of " + getattr(f, "__name__", str(f)))

    def hook():
        barrier.wait()
        rrule.on_new_rule(lambda f, sig: seen_by_hook.append(f))

    def registration():
        barrier.wait()
        for k in range(20):
            def g(x, k=k):
                return x * k
            @rrule.register(g, float)
            def g_rrule(x):
                def g_pullback(dy):
                    return NoTangent(), dy
                return g(x), g_pullback
            if rrule(g, 1.0) is None:
                misses.append("a rule just registered")

    workers = [lookups, lookups, lookups, listing, introspection, hook, registration, lookups]
    order.shuffle(workers)
    threads = [threading.Thread(target=w) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hooked = set(seen_by_hook)
    print(json.dumps({"misses": misses, "errors": errors,
                      "hook_missed": [getattr(f, "__name__", str(f)) for f in LOOKED_UP if f not in hooked],
                      "n_functions": len(rrule.functions())}))
''')


def run(seed, mode="lazy"):
    env = dict(os.environ, CHAINRULES_RULESETS=mode, CHAINRULES_NO_PLUGINS="1")
    return subprocess.Popen([sys.executable, "-c", PROGRAM, str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def result_of(process):
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.slow
def test_concurrent_lookups_listing_hooks_and_registration_agree_with_one_thread():
    processes = [run(seed) for seed in range(6)]
    reference = result_of(run(0, mode="eager"))  # everything imported first: the single-threaded answers
    assert not reference["misses"] and not reference["errors"] and not reference["hook_missed"]
    for seed, process in enumerate(processes):
        result = result_of(process)
        assert result["errors"] == [], f"seed {seed}: {result['errors']}"
        assert result["misses"] == [], f"seed {seed}: lookups answered 'no rule' for {sorted(set(result['misses']))}"
        assert result["hook_missed"] == [], f"seed {seed}: the hook never saw {result['hook_missed']}"
        assert result["n_functions"] == reference["n_functions"], f"seed {seed}: a different set of rules"
