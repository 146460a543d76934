"""Quiz questions made before they are asked for, so that serving one costs little.

Making a question of a skill graded by sampling (``Skill.sampled``: the calls, the
discards, the best card) grades it to a precision before it is ever served
(``lessons.quiz.judgement``): every option played out on the same layouts of the unseen
cards, 400 at a time, until each option's loss against the best is known to 0.03 points,
and another position drawn when the answer is not clear. That is 1,000 to 8,000 layouts a
question: measured on pure Python (``benchmarks/quiz_truth.py``), a median of about 0.4 s
for a best card, 4 s for a discard and 6 s for a call, up to about 20 s; the compiled build
is some 3–5 times faster. Two things keep that work off the request:

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
from time import monotonic
from typing import Any

from django.conf import settings
from django.core.cache import cache

from accounts.etags import code_version

from .quiz.skills import MAX_SEED, SKILLS, generate


def pool_size() -> int:
    """Questions kept ready for each sampled skill and level (``QUIZ_POOL_SIZE``, 200)."""
    return int(settings.QUIZ_POOL_SIZE)


REFILL_COUNT = 8
"""Questions a worker adds to a pool each time it is asked to: each joins the pool as soon
as it is made, so a task stopped by its time limit keeps what it made."""

PREPARE_SECONDS = 10.0
"""How long one worker task spends making questions before it hands its worker back: it
stops after the question under way once this much time has passed, and sends the rest of
its refill to the back of the queue, so that a review queued meanwhile (a player waiting
on an upload) never waits behind minutes of question making."""

REFILL_SECONDS = 60
"""A pool short of :func:`pool_size` is topped up at most this often (the requests that
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
    wait = REFILL_SECONDS if len(pool) < pool_size() else RENEW_SECONDS
    more = cache.add(_key("refill", skill, level), True, wait)
    if pool:
        seed = random.choice(pool)
        fields = cache.get(_key("question", skill, level, seed))
        if fields is not None:
            return dict(fields), more
    fields = question_fields(skill, secrets.randbelow(MAX_SEED + 1), level)
    _add_to_pool(skill, level, [fields["seed"]])
    return fields, more


def fill_pool(
    skill: str, level: int, count: int | None = None, seconds: float | None = None
) -> tuple[int, int]:
    """Make up to ``count`` new questions (:data:`REFILL_COUNT` by default) of ``skill`` at
    ``level`` and add each to its pool as it is made, the oldest going beyond
    :func:`pool_size`; with ``seconds``, stop after the question under way once that long
    has passed. Returns how many were made and the pool's size. (The worker's side of
    :func:`drawn`.)"""
    count = REFILL_COUNT if count is None else count
    stop = None if seconds is None else monotonic() + seconds
    size = len(cache.get(_key("pool", skill, level)) or [])
    made = 0
    while made < count and (stop is None or made == 0 or monotonic() < stop):
        seed = secrets.randbelow(MAX_SEED + 1)
        question_fields(skill, seed, level)
        size = _add_to_pool(skill, level, [seed])
        made += 1
    return made, size


def _add_to_pool(skill: str, level: int, seeds: list[int]) -> int:
    key = _key("pool", skill, level)
    pool = [*(cache.get(key) or []), *seeds][-pool_size() :]
    cache.set(key, pool, KEPT_SECONDS)
    return len(pool)
