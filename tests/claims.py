"""Every finding's comparative claim re-checked against its figure (issue 52 items 4 and 5), for the
tests that hold findings: each comparison a finding keeps (``decided_by``: analysis/stats.Comparison)
gives the same verdict when read again from its inputs, its words (stats.words) are in the
sentence, and a claim its comparison does not allow ("helps its holder most", "the best point",
"beats every other strategy") is not."""

from __future__ import annotations

from simbalance.analysis.findings import Finding
from simbalance.analysis.stats import APART, TOLD_APART, Comparison, decide, words


def check_claims(finding: Finding | dict) -> None:
    """Assert that ``finding`` (a Finding or its findings.json object) says what its comparisons decide."""
    if isinstance(finding, Finding):
        text, claim, comparisons = finding.text, finding.claim, list(finding.decided_by)
    else:
        text, claim = finding["text"], None  # findings.json keeps no claim: the sentence says it
        comparisons = [Comparison.from_dict(c) for c in finding.get("decided_by", [])]
        for c, stored in zip(comparisons, finding.get("decided_by", []), strict=True):
            assert stored["words"] == words(c), stored  # the words findings.json shows are the verdict's
    for c in comparisons:
        assert decide(c.rule, c.inputs) == c.verdict, (c, text)
        if c.rule == TOLD_APART:
            # the seat finding's sentence gives the seats' numbers; its claim (what a page that sums up
            # several arms repeats) is the verdict's words, and "the most"/"the least" only as told apart
            assert claim is None or claim == words(c), (claim, words(c))
            assert "wins the most" not in text or "most" in c.verdict, text
            assert "the least" not in text or "least" in c.verdict, text
        else:
            assert words(c).lower() in text.lower(), (words(c), text)
        if c.claim and c.verdict != APART:
            assert c.claim.lower() not in text.lower(), (c.claim, text)
