"""Every page kind in a real browser (issue 21 item 6): headless Chromium opens each page, and the
test fails on a console error (a script error, a resource that does not load), a figure without a
size or drawn out of its proportions, or a link to a part the page does not have; it writes a
screenshot of each page.

``make test`` opens the headline run page (and checks that the check can fail); ``make test-all``
opens every page kind. Chromium is Debian's ``chromium`` package; ``.ci/run`` installs it when
absent, so CI always runs these tests (with ``CI`` set, a missing browser fails them). On a machine
without it, they are skipped with a message. Screenshots go to ``$SIMBALANCE_SCREENSHOTS`` when set, else to pytest's temporary
folder (the path is printed).

No DevTools client is needed: a copy of each page gets a small probe script at the top of its
``<head>`` that records errors (``error`` events, resource failures included, and ``console.error``)
and, once the page has loaded, every image's natural and drawn size; Chromium's ``--dump-dom``
prints the page with the probe's report, and ``--enable-logging=stderr`` its console lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import simbalance
from simbalance.report.compare_page import write_compare_folder
from simbalance.report.ladder_page import write_ladder_folder
from simbalance.report.robustness_page import write_robustness_folder
from simbalance.report.run_folder import write_run_folder
from simbalance.report.skill_page import write_skill_folder
from simbalance.report.solve_page import write_solve_folder
from simbalance.report.sweep_page import write_sweep_folder
from simbalance.report.tournament_page import write_tournament_folder
from simbalance.report.tune_page import write_tune_folder

PROBE = """<script>
window.__errors = [];
window.addEventListener('error', function (e) {
  var t = e.target;
  window.__errors.push(t && t !== window && (t.src || t.href) ? 'failed to load ' + String(t.src || t.href).slice(0, 60)
                                                              : String(e.message));
}, true);
(function () { var orig = console.error; console.error = function () {
  window.__errors.push(Array.prototype.join.call(arguments, ' ')); orig.apply(console, arguments); }; })();
window.addEventListener('load', function () {
  var imgs = Array.prototype.map.call(document.images, function (i) {
    var r = i.getBoundingClientRect();
    return {alt: i.alt, natural: [i.naturalWidth, i.naturalHeight], drawn: [r.width, r.height]};
  });
  var dead = Array.prototype.filter.call(document.querySelectorAll("a[href^='#']"), function (a) {
    var id = a.getAttribute('href').slice(1);
    return id !== 'figures-closed' && !document.getElementById(id);
  }).map(function (a) { return a.getAttribute('href'); });
  var pre = document.createElement('pre');
  pre.id = '__probe';
  pre.textContent = JSON.stringify({errors: window.__errors, images: imgs, dead_links: dead});
  document.body.appendChild(pre);
});
</script>"""
WINDOW = (1400, 2400)


def browser() -> str | None:
    return next((b for b in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if b), None)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = browser()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed and CI is set: .ci/run installs it (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium): the pages are not checked in a browser")
    return found


def _chromium(binary: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", "--disable-extensions", f"--window-size={WINDOW[0]},{WINDOW[1]}", *args],
                          capture_output=True, text=True, timeout=180)


def inspect(binary: str, page: Path, workdir: Path) -> dict:
    """Open ``page`` with the probe: its errors (the probe's and Chromium's console lines) and its
    images' natural and drawn sizes."""
    html = page.read_text(encoding="utf-8")
    probed = workdir / f"probed-{page.parent.name}-{page.name}"
    head = html.index("<head>") + len("<head>") if "<head>" in html else 0
    probed.write_text(html[:head] + PROBE + html[head:], encoding="utf-8")
    done = _chromium(binary, "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom",
                     probed.as_uri())
    found = re.search(r"<pre id=\"__probe\">(.*?)</pre>", done.stdout, flags=re.S)
    assert found, f"{page}: the browser did not load the page (exit {done.returncode}): {done.stderr[-2000:]}"
    report = json.loads(found[1].replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"'))
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    report["errors"] = report["errors"] + console
    return report


def problems(report: dict) -> list[str]:
    """What is wrong with a page: its errors, images without a size or drawn out of proportion."""
    out = [f"console: {e}" for e in report["errors"]]
    out += [f"link to nothing on the page: {href}" for href in report.get("dead_links", [])]
    for img in report["images"]:
        (nw, nh), (dw, dh) = img["natural"], img["drawn"]
        if min(nw, nh, dw, dh) <= 0:
            out.append(f"figure {img['alt']!r} has no size: natural {nw}x{nh}, drawn {dw:.0f}x{dh:.0f}")
        elif abs((dw / dh) / (nw / nh) - 1) > 0.02:
            out.append(f"figure {img['alt']!r} is stretched: natural {nw}x{nh}, drawn {dw:.0f}x{dh:.0f}")
    return out


def screenshot(binary: str, page: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{page.parent.name}.png"
    done = _chromium(binary, f"--screenshot={shot}", page.as_uri())
    assert shot.is_file() and shot.stat().st_size > 10_000, f"no screenshot of {page}: {done.stderr[-1000:]}"
    return shot


def headline_page(root: Path) -> Path:
    """The run page of the main job's game, small."""
    run = simbalance.simulate("captain-future", 400, threads=1)
    return write_run_folder(run, root / "run-captain-future", "simbalance run") / "report.html"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """One page of every kind, small and quick."""
    root = tmp_path_factory.mktemp("pages")
    out = {"run captain-future": headline_page(root)}
    run = simbalance.simulate("captain-action", 2000, threads=1)
    out["run captain-action"] = write_run_folder(run, root / "run-captain-action", "simbalance run") / "report.html"
    res = simbalance.compare("captain-action", ["take-back", "short-countdown"], 1000, threads=1)
    out["compare"] = write_compare_folder(res, root / "compare", "simbalance compare") / "compare.html"
    res = simbalance.sweep("captain-action", ["rules.countdown=6:10:2"], 300, recheck=1, threads=1,
                           targets={"length_median": [2, 4]})
    out["sweep"] = write_sweep_folder(res, root / "sweep", "simbalance sweep") / "sweep.html"
    res = simbalance.sweep("captain-action", ["rules.countdown=6:10:2", "rules.hand_size=7,8"], 200, recheck=1,
                           threads=1, targets={"balance_min": 0.6})
    out["sweep two keys"] = write_sweep_folder(res, root / "sweep-two", "simbalance sweep") / "sweep.html"
    res = simbalance.tournament("captain-action", "builder,bold", 600, threads=1)
    out["tournament"] = write_tournament_folder(res, root / "tournament", "simbalance tournament") / "tournament.html"
    res = simbalance.skill("captain-action", 300, threads=1)
    out["skill"] = write_skill_folder(res, root / "skill", "simbalance skill") / "skill.html"
    res = simbalance.tune("captain-action", "builder", 150, generations=1, population=2, threads=1)
    out["tune"] = write_tune_folder(res, root / "tune", "simbalance tune") / "tune.html"
    from simbalance.studies.ladder import ladder
    from simbalance.studies.robustness import robustness

    res = ladder("captain-action", "2,8", 300, against="random", threads=1)
    out["ladder"] = write_ladder_folder(res, root / "ladder", "simbalance ladder") / "ladder.html"
    res = robustness("captain-action", 1000, budget=8, search_n=100, threads=1)
    out["robustness"] = write_robustness_folder(res, root / "robustness", "simbalance robustness") / "robustness.html"
    res = simbalance.solve("find-dr-evil", ["balance=0.9:1"], ["rules.first_card_to=0:3"], verify_n=2000, start_n=200,
                           threads=1)
    out["solve"] = write_solve_folder(res, root / "solve", "simbalance solve") / "solve.html"
    from simbalance.report.card_value_page import write_card_value_folder

    res = simbalance.card_value("captain-action", states=30, playouts=2, decisions=20, observe=2000, threads=1)
    out["card-value"] = write_card_value_folder(res, root / "card-value", "simbalance card-value") / "card_value.html"
    return out


def test_the_run_page_loads_without_errors_and_draws_every_figure(chromium, tmp_path_factory):
    check_in_browser(chromium, {"run captain-future": headline_page(tmp_path_factory.mktemp("run"))}, tmp_path_factory)


@pytest.mark.exhaustive
def test_every_page_kind_loads_without_errors_and_draws_every_figure(chromium, pages, tmp_path_factory):
    check_in_browser(chromium, pages, tmp_path_factory)


def check_in_browser(chromium: str, pages: dict[str, Path], tmp_path_factory) -> None:
    """Each page loads without errors and draws every figure; a screenshot of each."""
    folder = Path(os.environ.get("SIMBALANCE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    work = tmp_path_factory.mktemp("probed")
    failed = {}
    for kind, page in pages.items():
        report = inspect(chromium, page, work)
        assert report["images"], f"{kind}: no figure at all"
        if problems(report):
            failed[kind] = problems(report)
        screenshot(chromium, page, folder)
    print(f"screenshots of {len(pages)} pages in {folder}")
    assert not failed, failed


def test_the_check_fails_a_script_error_a_figure_without_a_size_and_a_dead_link(chromium, tmp_path):
    """The test can fail: a page with a script error, one with an image that does not load, one with
    a figure squeezed to nothing or stretched, and one linking to a part it does not have are each
    caught."""
    png = ("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mNk+M9QzwAEjDAGACCDAv8cI7IoAAAAAElFTkSuQmCC")
    cases = {
        "script": f"<!doctype html><html><head></head><body><img alt='ok' src='data:image/png;base64,{png}'>"
                  "<script>undefinedFunction()</script></body></html>",
        "broken": "<!doctype html><html><head></head><body><img alt='broken' src='data:image/png;base64,AAAA'></body></html>",
        "zero": f"<!doctype html><html><head></head><body><img alt='zero' width='0' src='data:image/png;base64,{png}'>"
                "</body></html>",
        "stretched": f"<!doctype html><html><head></head><body><img alt='tall' style='width:100px;height:200px' "
                     f"src='data:image/png;base64,{png}'></body></html>",
        "dead link": f"<!doctype html><html><head></head><body><a href='#nowhere'>see below</a>"
                     f"<img alt='ok' src='data:image/png;base64,{png}'></body></html>",
    }
    for name, html in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        page = folder / "page.html"
        page.write_text(html)
        found = problems(inspect(chromium, page, tmp_path))
        assert found, f"{name}: not caught"
        expected = {"script": "undefinedFunction", "broken": "no size", "zero": "no size", "stretched": "stretched",
                    "dead link": "#nowhere"}
        assert any(expected[name] in p for p in found), (name, found)
