"""Study name -> Study: every module under ``simbalance/studies/`` that defines ``STUDY`` (a
core/study.Study) is a study; nothing lists them. The command line (cli/main.py) and the API
(api.py) take their commands and entries from here, in ``rank`` order."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache

import simbalance.studies as studies_pkg
from simbalance.core.errors import SimbalanceError
from simbalance.core.study import Study, check_study
from simbalance.studies.settings import api_entry


@cache
def all_studies() -> tuple[Study, ...]:
    """Every study, each checked against the contract (core/study.check_study), by rank."""
    found: dict[str, Study] = {}
    for info in pkgutil.iter_modules(studies_pkg.__path__):
        module = importlib.import_module(f"{studies_pkg.__name__}.{info.name}")
        study = getattr(module, "STUDY", None)
        if not isinstance(study, Study):
            continue
        check_study(study)
        if study.name in found:
            raise SimbalanceError(f"study {study.name!r} is declared twice ({module.__name__})")
        found[study.name] = study
    return tuple(sorted(found.values(), key=lambda s: (s.rank, s.name)))


def entry_of(study: Study) -> Callable:
    """The study's API function: its hand-written one, or the one made from its params."""
    return study.api if study.api is not None else api_entry(study)


def get_study(name: str) -> Study:
    for study in all_studies():
        if study.name == name:
            return study
    raise SimbalanceError(f"unknown study {name!r}: allowed {', '.join(s.name for s in all_studies())}")
