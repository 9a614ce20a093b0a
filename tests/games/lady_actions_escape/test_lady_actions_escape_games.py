"""lady-actions-escape as plain Python."""

import simbalance


def test_plain_python_plays_the_same_games_as_the_jit():
    """NUMBA_DISABLE_JIT=1 runs the same code as Python (the bench's JIT speed-up needs it): the bit
    tricks on hands (core.bits) must give the same games."""
    import hashlib
    import os
    import subprocess
    import sys

    strategies = ["flexible", "steer", "blocker", "random"]
    code = ("import simbalance, hashlib; r = simbalance.simulate('lady-actions-escape', 3, seed=4, threads=1, "
            f"strategies={strategies!r}); print(hashlib.sha256(r.records.tobytes()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                         capture_output=True, text=True, check=True)
    jit = simbalance.simulate("lady-actions-escape", 3, seed=4, threads=1, strategies=strategies)
    assert out.stdout.strip() == hashlib.sha256(jit.records.tobytes()).hexdigest()
