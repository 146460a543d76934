"""The quiz's skills, each a seeded generator of questions at levels 1 to 3.

>>> question = generate("left-bower", seed=7, level=1)
>>> question == generate("left-bower", seed=7, level=1)
True
>>> "answer" in question.payload()
False
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.errors import shown

from .house_rules import farmers_hand_question, legal_calls_question
from .judgement import best_card_question, call_question, discard_question
from .question import Draft, Question, QuizError
from .table_rules import leader_question, points_question
from .tricks import effective_suit_question, legal_question, trumps_question, winner_question

__all__ = ["LEVELS", "MAX_SEED", "SKILLS", "Skill", "generate"]

LEVELS = (1, 2, 3)
MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to this (they are stored in a 64-bit column)."""

Maker = Callable[[random.Random, int], Draft]


@dataclass(frozen=True)
class Skill:
    slug: str
    title: str
    kinds: dict[str, Maker]
    """Each kind this skill asks, with its generator; a question's kind is drawn evenly."""
    sampled: bool = False
    """Its questions are graded by playing every option out over sampled layouts of the
    unseen cards until the answer is known to a precision (``judgement``): seconds to
    make, where the others take a fraction of a millisecond."""


def _left(maker: Callable[..., Draft]) -> Maker:
    return lambda rng, level: maker(rng, level, focus_left=True)


def _plain(maker: Callable[..., Draft]) -> Maker:
    return lambda rng, level: maker(rng, level, focus_left=False)


SKILLS: dict[str, Skill] = {
    skill.slug: skill
    for skill in (
        Skill(
            "left-bower",
            "The left bower",
            {
                "effective_suit": _left(effective_suit_question),
                "winner": _left(winner_question),
                "legal": _left(legal_question),
                "trumps": _left(trumps_question),
            },
        ),
        Skill("legal-play", "Following suit", {"legal": _plain(legal_question)}),
        Skill("trick-winner", "Who wins the trick", {"winner": _plain(winner_question)}),
        Skill("scoring", "Scoring a hand", {"points": points_question}),
        Skill("leader", "Who leads first", {"leader": leader_question}),
        Skill(
            "house-rules",
            "House rules in the bidding",
            {"legal_calls": legal_calls_question, "farmers_hand": farmers_hand_question},
        ),
        Skill("bidding", "Bidding", {"call": call_question}, sampled=True),
        Skill(
            "discard", "Discarding after the pick-up", {"discard": discard_question}, sampled=True
        ),
        Skill("best-card", "The best card", {"best_card": best_card_question}, sampled=True),
    )
}


def generate(skill: str, seed: int, level: int = 1) -> Question:
    """The question of ``skill`` at ``level`` made from ``seed``: the same every time."""
    if skill not in SKILLS:
        known = ", ".join(SKILLS)
        raise QuizError(f"skill: unknown skill {shown(skill)} (known skills: {known})")
    if isinstance(level, bool) or level not in LEVELS:
        raise QuizError(f"level: expected 1, 2 or 3, got {shown(level)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise QuizError(f"seed: expected a whole number from 0 to {MAX_SEED}, got {seed!r}")
    rng = random.Random(f"{skill}:{level}:{seed}")
    kinds = SKILLS[skill].kinds
    kind = rng.choice(sorted(kinds))
    draft = kinds[kind](rng, level)
    return Question(
        skill=skill,
        kind=draft.kind,
        level=level,
        seed=seed,
        prompt=draft.prompt,
        position=draft.position,
        choices=draft.choices,
        multiple=draft.multiple,
        grading=draft.grading,
    )
