"""Fresh virtual environments for the tests that install packages (tests/test_packaging.py's wheel,
and in its venv tests/new_game_walk.py): made without pip (fast) and filled by this interpreter's pip
(``pip --python``), in a temporary folder outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import simbalance

CHECKOUT = Path(simbalance.__file__).resolve().parents[1]  # the folder holding the simbalance under test


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would point a run back at this checkout or its caches."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SIMBALANCE_CONFIG_DIR", "NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.update(extra)
    return env


def run(args: list, cwd: Path, timeout: float = 600, env: dict | None = None) -> subprocess.CompletedProcess:
    out = subprocess.run([str(a) for a in args], cwd=cwd, env=env or clean_env(), capture_output=True, text=True,
                         timeout=timeout)
    return out


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """``result``, or a failure that shows what the command printed."""
    assert result.returncode == 0, f"{result.args}: exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


class Venv:
    def __init__(self, folder: Path, *, share_packages: bool = False, columns: int = 200):
        """A new venv in ``folder``. ``share_packages``: it also sees this checkout's simbalance and
        every package this interpreter has (a ``.pth`` file), so that only what a test installs is new.
        ``columns``: the terminal width its commands print for."""
        self.folder = folder
        self.columns = columns
        ok(run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=folder.parent))
        self.python = folder / "bin" / "python"
        if share_packages:
            purelib = ok(run([self.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             cwd=folder)).stdout.strip()
            paths = [str(CHECKOUT), sysconfig.get_paths()["purelib"]]
            Path(purelib, "zz_simbalance_under_test.pth").write_text("\n".join(paths) + "\n")

    def pip(self, *args, timeout: float = 600) -> subprocess.CompletedProcess:
        return run([sys.executable, "-m", "pip", "--python", self.python, *args], cwd=self.folder.parent,
                   timeout=timeout)

    def simbalance(self, *args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
        """`simbalance ARGS` with the venv's Python."""
        return self.simbalance_python("-m", "simbalance.cli.main", *args, cwd=cwd, timeout=timeout)

    def simbalance_python(self, *args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
        """`python ARGS` with the venv's Python, on a wide terminal."""
        return run([self.python, *args], cwd=cwd, timeout=timeout, env=clean_env(COLUMNS=str(self.columns)))
