"""What the replay page keeps between requests, so that a step costs little.

- **The tree of positions** (:class:`games.replay.Replay`) of each record and review, in
  the memory of each process (:func:`replay_of`): a step of the page reads it rather than
  parsing the record and the review and dealing the hand again. It is keyed by the
  record's hash, the review's identity and what the hand's file said of it (its
  annotations and alternative lines, which belong to the hand, not to the record), so a
  new review, the double-dummy table stored later, or annotations added by a new upload
  make a new one.
- **The solver's moves of a what-if line** (:func:`solver_moves`), in Django's cache
  (Redis in production, files on the embedded set-up): searched once for a record, a
  line and a solver version, then read by everyone who asks for the same line.
"""

from __future__ import annotations

import hashlib
import json

from django.core.cache import cache

from analysis.models import AnalysisResult
from analysis.solver.review import SOLVER_VERSION

from .kept import Kept
from .library import Jobs
from .models import Hand
from .replay import Params, Replay, with_solver_moves

REPLAYS_KEPT = 128
"""Trees kept by each process, the least recently read forgotten first: about 0.2 MB each
with its review (some 25 MB a process), what-if positions aside
(``games.replay.MAX_SIDE_NODES`` bounds them)."""

SOLVER_MOVES_SECONDS = 7 * 24 * 3600
"""How long a what-if line's solver moves stay in the cache (they never change for a
solver version; the time only lets lines nobody asks for again go)."""


_replays: Kept[tuple[object, ...], Replay] = Kept(REPLAYS_KEPT)


def replay_of(hand: Hand, jobs: Jobs | None = None) -> Replay:
    """The hand's tree of positions with the review of ``jobs.done`` and its double-dummy
    table (none without ``jobs``), and the annotations and alternative lines of its file,
    kept for the next request of the same record, review and file data. The tree is
    shared: copy a state before applying anything to it."""
    key = (
        hand.record_hash,
        _file_data_key(hand),
        *(() if jobs is None else jobs.review_key),
    )
    replay = _replays.get(key)
    if replay is None:
        result = None
        if jobs is not None and jobs.done is not None and jobs.done.result_id is not None:
            result = AnalysisResult.objects.filter(pk=jobs.done.result_id).first()
        review = None if result is None else result.as_review()
        dd = None if result is None else result.double_dummy()
        replay = Replay(
            hand.record, review, dd, notes=hand.notes_from_file(), lines=hand.file_lines
        )
        _replays.put(key, replay)
    return replay


def _file_data_key(hand: Hand) -> str:
    """What the hand's file said of it, in a few bytes: ``""`` when it said nothing."""
    if not hand.file_notes and not hand.file_lines:
        return ""
    data = json.dumps([hand.file_notes, hand.file_lines], sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()


def forget_replays() -> None:
    """Empty this process's trees (the tests start each from nothing)."""
    _replays.clear()


def solver_moves(replay: Replay, record_hash: str, params: Params) -> tuple[Params, str]:
    """:func:`games.replay.with_solver_moves`, searched once for each record, branch, line
    and solver version and then read from the cache."""
    if not params.auto:
        return params, ""
    key = (
        "replay-solver:"
        + hashlib.sha256(
            json.dumps(
                [SOLVER_VERSION, record_hash, params.step, list(params.line), params.auto]
            ).encode()
        ).hexdigest()
    )
    found = cache.get(key)
    if found is not None:
        step, line, message = found
        return Params(step, params.seat, params.view, tuple(line), params.share), message
    moved, message = with_solver_moves(replay, params)
    cache.set(key, (moved.step, list(moved.line), message), SOLVER_MOVES_SECONDS)
    return moved, message
