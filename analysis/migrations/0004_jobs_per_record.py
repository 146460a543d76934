"""One job per (record hash, parameters, solver version): copy each job's record from its
hand and merge the jobs of one key into one.

Which job of a key is kept: a done one with its result first (every done job of a key
shares the key's one result, so no review is lost), else a running or queued one, else a
failed one; the latest of them. The hands whose count of mistakes was taken from a merged
job point at the kept one. Reversing keeps the merged jobs merged: each kept job goes
back to the hand of its record that was created first.
"""

from typing import Any

from django.db import migrations

KEEP_ORDER = {"done": 0, "running": 1, "queued": 2, "failed": 3}


def _rank(job: Any) -> tuple[int, float, int]:
    status = KEEP_ORDER.get(job.status, 4)
    if job.status == "done" and job.result_id is None:
        status = 3
    return (status, -job.created.timestamp(), -job.pk)


def merge_jobs(apps: Any, schema_editor: Any) -> None:
    AnalysisJob = apps.get_model("analysis", "AnalysisJob")
    Hand = apps.get_model("games", "Hand")
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for job in AnalysisJob.objects.select_related("hand").order_by("pk"):
        job.record = job.hand.record
        job.record_hash = job.hand.record_hash
        job.save(update_fields=["record", "record_hash"])
        key = (job.record_hash, job.params_key, job.solver_version)
        groups.setdefault(key, []).append(job)
    for jobs in groups.values():
        if len(jobs) == 1:
            continue
        kept, *merged = sorted(jobs, key=_rank)
        merged_ids = [job.pk for job in merged]
        Hand.objects.filter(mistakes_job_id__in=merged_ids).update(mistakes_job_id=kept.pk)
        AnalysisJob.objects.filter(pk__in=merged_ids).delete()


def back_to_hands(apps: Any, schema_editor: Any) -> None:
    AnalysisJob = apps.get_model("analysis", "AnalysisJob")
    Hand = apps.get_model("games", "Hand")
    for job in AnalysisJob.objects.all():
        hand = Hand.objects.filter(record_hash=job.record_hash).order_by("pk").first()
        if hand is None:
            job.delete()
        else:
            job.hand = hand
            job.save(update_fields=["hand"])


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0003_analysisjob_record"),
        ("games", "0009_handcomment_edited"),
    ]

    operations = [
        migrations.RunPython(merge_jobs, back_to_hands),
    ]
