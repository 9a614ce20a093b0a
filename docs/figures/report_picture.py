"""Regenerate README's pictures of the pages: docs/images/report.png (the main job's report.html)
and docs/images/compare.png (a comparison of two captain-action variants).

    python docs/figures/report_picture.py        # `make docs-picture`

Runs `simbalance run captain-future --n 1e6` (the main job of `make run`) and `simbalance compare
captain-action --variant take-back --variant short-countdown --n 1e5` into a temporary folder and
screenshots their pages with headless Chromium (`apt-get install chromium`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
WINDOW = "--window-size=1400,1900"


def screenshot(browser: str, page: Path, picture: Path) -> None:
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={picture}", WINDOW, page.as_uri()], check=True, capture_output=True)
    print(f"wrote {picture}")


def main() -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("error: no chromium on PATH (apt-get install chromium)")
    simbalance = Path(sys.executable).with_name("simbalance")
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        subprocess.run([str(simbalance), "run", "captain-future", "--n", "1e6", "--out", str(run)], check=True)
        screenshot(browser, run / "report.html", IMAGES / "report.png")
        compare = Path(tmp) / "compare"
        subprocess.run([str(simbalance), "compare", "captain-action", "--variant", "take-back", "--variant",
                        "short-countdown", "--n", "1e5", "--out", str(compare)], check=True)
        screenshot(browser, compare / "compare.html", IMAGES / "compare.png")


if __name__ == "__main__":
    main()
