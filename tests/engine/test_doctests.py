"""The examples in the pure modules' docstrings are run, so they stay true.

A compiled module keeps no docstrings, so the examples are read from its source (a copy of
the module run from its ``.py``, never put in ``sys.modules``) and run against the module as
imported: on the compiled build, they check the compiled code.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from games.engine.compiled import is_compiled

MODULES = [
    "analysis.solver.judgement",
    "analysis.solver.precision",
    "games.strategy.observation",
    "games.strategy.policy",
    "games.engine.cards",
    "games.engine.egn",
    "games.engine.emn",
    "games.engine.game",
    "games.engine.notation",
    "games.engine.ptn",
    "games.engine.record",
    "games.engine.rules",
    "games.engine.scoring",
    "games.engine.words",
    "lessons.content",
    "lessons.mastery",
    "lessons.quiz.skills",
]


def docstring_examples(module: ModuleType) -> list[doctest.DocTest]:
    """The examples of ``module``'s docstrings, to run in its namespace; a compiled module's
    read from a copy run from its source."""
    if not is_compiled(module):
        return doctest.DocTestFinder().find(module)
    name = module.__name__
    source = Path(str(module.__file__)).with_name(name.rpartition(".")[2] + ".py")
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    # The finder takes an object for the module's own when sys.modules names it so.
    sys.modules[name] = copy
    try:
        return doctest.DocTestFinder().find(copy, name, globs=vars(module))
    finally:
        sys.modules[name] = module


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    tests = docstring_examples(module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    failures, tried = runner.summarize(verbose=False)
    assert tried > 0, f"{name} has no examples to run"
    assert failures == 0
