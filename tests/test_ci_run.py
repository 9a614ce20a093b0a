""".ci/run with its commands stubbed (qa56c, issue 56 item 3): Debian's chromium installs in the
background while `make lint` runs; a failed install shows its output and stops CI before the
tests; nothing is left behind. No package is installed: `make`, `apt-get`, `sudo` and `id` are
small scripts on a PATH of their own, which log what they were asked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CI_RUN = Path(__file__).resolve().parents[1] / ".ci" / "run"
TOOLS = ("bash", "mktemp", "cat", "dirname", "sleep", "env", "rm", "date")

STUBS = {
    "make": """#!/bin/bash
echo "make $*" >> "$TRACE"
[ "$1" = lint ] && exit "${LINT_RC:-0}"
exit 0
""",
    "apt-get": """#!/bin/bash
echo "apt-get $* DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-unset}" >> "$TRACE"
echo "apt-get said this about $1"
[ "$1" = install ] && exit "${APT_RC:-0}"
exit 0
""",
    # sudo's default (sudoers(5): env_reset): the command sees a fresh environment, not the caller's
    "sudo": """#!/bin/bash
echo "sudo $*" >> "$TRACE"
exec env -i PATH="$PATH" TRACE="$TRACE" APT_RC="${APT_RC:-0}" "$@"
""",
    "id": """#!/bin/bash
echo "${UID_IS:-0}"
""",
}


def ci_run(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess, list[str], list[Path]]:
    """.ci/run (a copy, in a checkout of its own) with no chromium on PATH: (its result, the stubs'
    log, the files left in its TMPDIR)."""
    bin_dir, checkout, temp = tmp_path / "bin", tmp_path / "checkout", tmp_path / "tmp"
    for folder in (bin_dir, checkout / ".ci", temp):
        folder.mkdir(parents=True)
    for tool in TOOLS:
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for name, text in STUBS.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    shutil.copy(CI_RUN, checkout / ".ci" / "run")
    trace = tmp_path / "trace"
    trace.touch()
    done = subprocess.run([str(bin_dir / "bash"), str(checkout / ".ci" / "run")], capture_output=True, text=True,
                          timeout=60, env={"PATH": str(bin_dir), "TRACE": str(trace), "TMPDIR": str(temp), **env})
    return done, trace.read_text().splitlines(), sorted(temp.iterdir())


@pytest.mark.skipif(not all(shutil.which(t) for t in TOOLS), reason="needs bash and coreutils")
def test_a_failed_install_shows_its_output_and_stops_before_the_tests(tmp_path):
    done, trace, _ = ci_run(tmp_path, APT_RC="100")
    assert done.returncode == 1, done
    assert "apt-get said this about install" in done.stderr and "installing Debian's chromium failed" in done.stderr
    assert "make test-all" not in trace and "make lint" in trace


@pytest.mark.skipif(not all(shutil.which(t) for t in TOOLS), reason="needs bash and coreutils")
def test_the_install_leaves_no_file_behind(tmp_path):
    """Its output goes to a temporary file, shown only on a failure: that file is .ci/run's own, and
    goes when it is done with it (it stayed in TMPDIR after every run that installed chromium)."""
    done, trace, left = ci_run(tmp_path)
    assert done.returncode == 0 and trace[-1] == "make test-all", (done, trace)
    assert left == [], left


@pytest.mark.skipif(not all(shutil.which(t) for t in TOOLS), reason="needs bash and coreutils")
@pytest.mark.parametrize("uid", ["0", "1000"])
def test_apt_get_is_noninteractive_with_and_without_sudo(tmp_path, uid):
    """DEBIAN_FRONTEND=noninteractive reaches apt-get also through sudo, which by default passes on
    none of its caller's environment: `VAR=x sudo cmd` sets VAR for sudo, not for cmd
    (`sudo env VAR=x cmd` or `sudo DEBIAN_FRONTEND=noninteractive cmd` would)."""
    done, trace, _ = ci_run(tmp_path, UID_IS=uid)
    assert done.returncode == 0, done
    installs = [line for line in trace if line.startswith("apt-get install")]
    assert installs and all(line.endswith("DEBIAN_FRONTEND=noninteractive") for line in installs), trace
