"""Every finding's comparative claim re-checked against its figure (issue 52 items 4 and 5), for the
tests that hold findings: each comparison a finding keeps (``decided_by``: analysis/stats.Comparison)
gives the same verdict when read again from its inputs, its words (stats.words) are in the
sentence, and a claim its comparison does not allow ("helps its holder most", "the best point",
"beats every other strategy") is not."""

from __future__ import annotations

import re

from simbalance.analysis.findings import Finding
from simbalance.analysis.stats import TOLD_APART, Comparison, allows, decide, words

COMPARATIVE = re.compile(r"\b(beats|dominates|meets|overstates|understates|not told apart|told apart|"
                         r"wins the most|the least|stands out)\b", re.IGNORECASE)


# "no budget beats", "no change within these knobs meets": a claim that nothing does, which no single
# comparison decides (a study says it from every candidate refuted); a positive claim needs its own
NEGATED = re.compile(r"\b(no|none|not|nothing)\b[^.;:]*$", re.IGNORECASE)


def check_claims(finding: Finding | dict) -> None:
    """Assert that ``finding`` (a Finding or its findings.json object) says what its comparisons decide."""
    if isinstance(finding, Finding):
        text, claim, comparisons = finding.text, finding.claim, list(finding.decided_by)
    else:
        text, claim = finding["text"], None  # findings.json keeps no claim: the sentence says it
        comparisons = [Comparison.from_dict(c) for c in finding.get("decided_by", [])]
        for c, stored in zip(comparisons, finding.get("decided_by", []), strict=True):
            assert stored["words"] == words(c), stored  # the words findings.json shows are the verdict's
    # a comparative word is the verdict of a comparison the finding keeps (docs/architecture.md, "Add a
    # study"): a sentence that says one and keeps none cannot be read again
    said = [m for m in COMPARATIVE.finditer(text) if not NEGATED.search(text[max(0, m.start() - 60):m.start()])]
    assert comparisons or not said, (f"{said[0].group(0)!r} said with no comparison kept (decided_by)", text)
    for c in comparisons:
        assert decide(c.rule, c.inputs) == c.verdict, (c, text)
        if c.rule == TOLD_APART:
            # the seat finding's sentence gives the seats' numbers; its claim (what a page that sums up
            # several arms repeats) is its first verdict's words
            assert claim is None or c != comparisons[0] or claim == words(c), (claim, words(c))
        else:
            assert words(c).lower() in text.lower(), (words(c), text)
        if c.claim and not allows(c):
            assert c.claim.lower() not in text.lower(), (c.claim, text)
    # "player 2 wins the most", "player 1 the least": only as the words of a seat comparison it keeps
    seats = [words(c) for c in comparisons if c.rule == TOLD_APART]
    for said in re.findall(r"player \d+ wins the most|player \d+ (?:wins )?the least", text, flags=re.IGNORECASE):
        assert any(said.lower() in w for w in seats), (said, text)
