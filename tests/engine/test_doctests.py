"""The examples in the pure modules' docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "analysis.solver.judgement",
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


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0, f"{name} has no examples to run"
    assert failures == 0
