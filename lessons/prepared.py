"""Quiz questions made before they are asked for, so that serving one costs little.

Making a question of a skill graded by sampling (``Skill.sampled``: the calls, the
discards, the best card) plays every option out over 60 layouts of the unseen cards:
50–130 ms of one core. Two things keep that work off the request:

- **A question made is kept** in Django's cache by its skill, level, seed and the site's
  code version (:func:`question_fields`): the same seed asked for again (the API's
  ``seed``, a question due for review) is read, not made again.
- **A pool of prepared questions** for each sampled skill and level (:func:`drawn`): a
  question asked for without a seed is drawn at random from the pool, and a worker
  (``lessons.tasks.prepare_questions``, on the ``bulk`` queue, sent by
  ``QuizQuestion.objects.create_drawn``) adds new ones to it and lets the oldest go, so
  the pool keeps changing. Only while a pool is empty (a fresh cache, no
  worker yet) is a question made on the request, and then it joins the pool.

The other skills' questions take a fraction of a millisecond to make: they are made on
the request from a random seed, as before.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.core.cache import cache

from accounts.etags import code_version

from .quiz.skills import MAX_SEED, SKILLS, generate

POOL_SIZE = 200
"""Questions kept ready for each sampled skill and level."""

REFILL_COUNT = 20
"""Questions a worker adds to a pool each time it is asked to."""

REFILL_SECONDS = 60
"""A pool short of :data:`POOL_SIZE` is topped up at most this often (the requests that
draw from it ask for it)."""

RENEW_SECONDS = 600
"""A full pool is renewed (new questions in, the oldest out) at most this often."""

KEPT_SECONDS = 7 * 24 * 3600
"""How long a question made, and a pool, stay in the cache unread."""


def _key(*parts: object) -> str:
    return ":".join(["quiz", code_version(), *map(str, parts)])


def question_fields(skill: str, seed: int, level: int) -> dict[str, Any]:
    """The columns of a ``QuizQuestion`` of ``skill`` made from ``seed`` at ``level``: for a
    sampled skill, read from the cache, or made (``lessons.quiz.skills.generate``) and kept
    there; for a quick one, made (faster than a cache's round trip). Raises ``QuizError``
    for a bad skill, seed or level."""
    kept = skill in SKILLS and SKILLS[skill].sampled
    key = _key("question", skill, level, seed)
    found = cache.get(key) if kept else None
    if found is not None:
        return dict(found)
    question = generate(skill, seed, level)
    fields = {
        "skill": question.skill,
        "kind": question.kind,
        "level": question.level,
        "seed": question.seed,
        "payload": question.payload(),
        "grading": question.grading.to_json(),
    }
    if kept:
        cache.set(key, fields, KEPT_SECONDS)
    return fields


def drawn(skill: str, level: int) -> tuple[dict[str, Any], bool]:
    """The columns of a question of ``skill`` at ``level`` asked for without a seed: drawn
    from the skill's pool when it is sampled, made from a random seed otherwise; and
    whether a worker should now top the pool up (:func:`fill_pool`, at most once a
    minute while it is short, every ten minutes once full, so that it keeps changing)."""
    if skill not in SKILLS or not SKILLS[skill].sampled:
        return question_fields(skill, secrets.randbelow(MAX_SEED + 1), level), False
    pool = cache.get(_key("pool", skill, level)) or []
    wait = REFILL_SECONDS if len(pool) < POOL_SIZE else RENEW_SECONDS
    more = cache.add(_key("refill", skill, level), True, wait)
    if pool:
        seed = random.choice(pool)
        fields = cache.get(_key("question", skill, level, seed))
        if fields is not None:
            return dict(fields), more
    fields = question_fields(skill, secrets.randbelow(MAX_SEED + 1), level)
    _add_to_pool(skill, level, [fields["seed"]])
    return fields, more


def fill_pool(skill: str, level: int, count: int | None = None) -> int:
    """Make ``count`` new questions (:data:`REFILL_COUNT` by default) of ``skill`` at
    ``level`` and add them to its pool, the oldest going beyond :data:`POOL_SIZE`; returns
    the pool's size. (The worker's side of :func:`drawn`.)"""
    count = REFILL_COUNT if count is None else count
    seeds = [secrets.randbelow(MAX_SEED + 1) for _ in range(count)]
    for seed in seeds:
        question_fields(skill, seed, level)
    return _add_to_pool(skill, level, seeds)


def _add_to_pool(skill: str, level: int, seeds: list[int]) -> int:
    key = _key("pool", skill, level)
    pool = [*(cache.get(key) or []), *seeds][-POOL_SIZE:]
    cache.set(key, pool, KEPT_SECONDS)
    return len(pool)
