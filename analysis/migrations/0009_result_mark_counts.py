"""How many decisions each review marks, kept beside the review (``mark_counts``), so that
My hands reads a small column for each row instead of the whole review; every review
already stored is counted here."""

from typing import Any

from django.db import migrations, models

from analysis.solver.review import Review

BATCH = 500


def count_marks(apps: Any, schema_editor: Any) -> None:
    AnalysisResult = apps.get_model("analysis", "AnalysisResult")
    results = AnalysisResult.objects.only("pk", "review").order_by("pk")
    batch = []
    for result in results.iterator(chunk_size=BATCH):
        result.mark_counts = Review.mark_counts_in(result.review)
        batch.append(result)
        if len(batch) == BATCH:
            AnalysisResult.objects.bulk_update(batch, ["mark_counts"])
            batch = []
    AnalysisResult.objects.bulk_update(batch, ["mark_counts"])


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0008_analysisjob_announced"),
    ]

    operations = [
        migrations.AddField(
            model_name="analysisresult",
            name="mark_counts",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="How many decisions the review gives each mark, by the mark's name "
                "(Review.mark_counts_in): what a list of hands shows, read without the review.",
            ),
        ),
        migrations.RunPython(count_marks, migrations.RunPython.noop),
    ]
