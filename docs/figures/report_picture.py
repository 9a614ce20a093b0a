"""Regenerate README's report picture (docs/images/report.png) from the main job's report.

    python docs/figures/report_picture.py        # `make docs-picture`

Runs `simbalance run captain-future --n 1e6` (the main job of `make run`) into a temporary folder
and screenshots its report.html with headless Chromium (`apt-get install chromium`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "images" / "report.png"


def main() -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("error: no chromium on PATH (apt-get install chromium)")
    simbalance = Path(sys.executable).with_name("simbalance")
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        subprocess.run([str(simbalance), "run", "captain-future", "--n", "1e6", "--out", str(run)], check=True)
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={PICTURE}", "--window-size=1000,1700", (run / "report.html").as_uri()],
                       check=True, capture_output=True)
    print(f"wrote {PICTURE}")


if __name__ == "__main__":
    main()
