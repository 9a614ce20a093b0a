"""A study's folder, written the same way for every study (core/study.py): by the study's own writer
(``Study.writer``), or, for a study that declares none, the plain folder every study gets for free:
``<name>.html`` with its tables and findings, ``<name>.json`` (``result.numbers()``),
findings.json and manifest.json, all written into place at once (``atomic_folder``: a folder is
whole or absent, never half)."""

from __future__ import annotations

from html import escape
from pathlib import Path

from simbalance.core.study import Study, resolve
from simbalance.report.html import page, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, study_manifest, write_json


def write_folder(study: Study, result, out: Path, command: str) -> Path:
    """Write ``result``'s folder into ``out``; returns its path."""
    if study.writer is not None:
        return resolve(study.writer)(result, out, command)
    found = result.findings()
    with atomic_folder(out) as tmp:
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        write_json(tmp / f"{study.name}.json", result.numbers())
        parts = []
        for title, df in result.tables():
            parts.append(f"<h2>{escape(title)}</h2>")
            parts.append(table([escape(str(c)) for c in df.columns],
                               [[f"{v:.4g}" if isinstance(v, float) else escape(str(v)) for v in row]
                                for row in df.itertuples(index=False)], text_cols=1))
        sub = sub_line(f"{result.n:,} games", f"{result.players} players", f"seed {result.seed}")
        html = page(f"{study.name} {result.game}", f"{result.game}: {study.name}", sub, *parts, findings=found)
        (tmp / study.page).write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest(study.name, result.game, result.players, result.n, result.seed,
                                                    command))
    return Path(out)
