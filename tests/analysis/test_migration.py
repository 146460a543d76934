"""Migrations 0003-0007 turn the jobs of hands into the jobs of records, keeping every
review, and store the double-dummy table of every review already made."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult, params_key
from analysis.solver.hindsight import dd_table
from analysis.solver.review import SOLVER_VERSION, Review, ReviewParams, review_hand
from games.engine.record import parse_record
from games.models import Hand, record_hash
from tests.conftest import MARCH, SPEC_RECORD

BEFORE = [("analysis", "0002_analysisresult_analysisjob"), ("games", "0009_handcomment_edited")]
AFTER = [("analysis", "0008_analysisjob_announced")]
"""The analysis migrations under test, through the latest, so that the models of today can
read the rows; the other apps then go to their latest, which those models need."""


@pytest.mark.django_db(transaction=True)
def test_the_jobs_of_identical_hands_become_one_and_every_review_stays() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldHand = old.get_model("games", "Hand")
    OldJob = old.get_model("analysis", "AnalysisJob")
    OldResult = old.get_model("analysis", "AnalysisResult")
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    march, spec = (parse_record(r).canonical() for r in (MARCH, SPEC_RECORD))
    digest = record_hash(march)
    params = ReviewParams()
    key = params_key(params)
    review = review_hand(parse_record(march), ReviewParams(samples=0)).to_json()

    def hand(owner: User, record: dict) -> object:
        return OldHand.objects.create(
            owner_id=owner.pk,
            rules_preset="standard",
            record=record,
            record_hash=record_hash(record),
        )

    alices, bobs, unfinished = hand(alice, march), hand(bob, march), hand(alice, spec)
    result = OldResult.objects.create(
        record_hash=digest, params_key=key, solver_version=SOLVER_VERSION, review=review, seconds=1
    )
    job = {"params": params.to_json(), "params_key": key, "solver_version": SOLVER_VERSION}
    long_ago = timezone.now() - timedelta(days=2)
    failed = OldJob.objects.create(hand=alices, record_hash=digest, status="failed", **job)
    done = OldJob.objects.create(
        hand=alices, record_hash=digest, status="done", result=result, **job
    )
    bobs_done = OldJob.objects.create(
        hand=bobs, record_hash=digest, status="done", result=result, **job
    )
    OldJob.objects.filter(pk=failed.pk).update(created=long_ago)
    OldJob.objects.filter(pk=done.pk).update(created=long_ago + timedelta(hours=1))
    waiting = OldJob.objects.create(
        hand=unfinished, record_hash=record_hash(spec), status="queued", **job
    )
    OldHand.objects.filter(pk=alices.pk).update(mistakes=0, mistakes_job_id=done.pk)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    jobs = {j.record_hash: j for j in AnalysisJob.objects.all()}
    assert len(jobs) == 2
    kept = jobs[digest]
    assert kept.pk == bobs_done.pk and kept.status == "done" and kept.result_id == result.pk
    assert kept.record == march
    assert jobs[record_hash(spec)].pk == waiting.pk and jobs[record_hash(spec)].record == spec
    assert Hand.objects.get(pk=alices.pk).mistakes_job_id == kept.pk  # was a merged job
    for pk in (alices.pk, bobs.pk):
        assert Hand.objects.get(pk=pk).review() == Review.from_json(review)
    stored = kept.result
    assert stored.review == review
    table = stored.double_dummy()
    assert table is not None and table.table == dd_table(parse_record(march))

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_marks_of_every_stored_review_are_counted_beside_it() -> None:
    before = [("analysis", "0008_analysisjob_announced")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldResult = executor.loader.project_state(before).apps.get_model("analysis", "AnalysisResult")
    review = {
        "result": {},
        "decisions": [
            {"seat": "N", "mark": "??", "class": "blunder"},
            {"seat": "E", "mark": "?!", "class": "inaccuracy"},
            {"seat": "S", "mark": "??", "class": "blunder"},
            {"seat": "W", "mark": None, "class": None},
        ],
    }
    marked = OldResult.objects.create(
        record_hash="a" * 64, params_key="{}", solver_version="4", review=review, seconds=1
    )
    clean = OldResult.objects.create(
        record_hash="b" * 64, params_key="{}", solver_version="4", review={}, seconds=1
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    counts = dict(AnalysisResult.objects.values_list("pk", "mark_counts"))
    assert counts == {marked.pk: {"blunder": 2, "inaccuracy": 1}, clean.pk: {}}
