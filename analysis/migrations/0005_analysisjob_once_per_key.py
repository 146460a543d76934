"""Jobs lose their hand: one job per (record hash, parameters, solver version)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0004_jobs_per_record"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="analysisjob", name="analysis_job_key"),
        migrations.RemoveIndex(model_name="analysisjob", name="analysis_job_hand_newest"),
        migrations.RemoveField(model_name="analysisjob", name="hand"),
        migrations.AlterField(
            model_name="analysisjob",
            name="record",
            field=models.JSONField(help_text="The canonical record to review."),
        ),
        migrations.AlterField(
            model_name="analysisjob",
            name="created",
            field=models.DateTimeField(
                auto_now_add=True, help_text="When it was asked for (again, after a failure)."
            ),
        ),
        migrations.AlterField(
            model_name="analysisjob",
            name="record_hash",
            field=models.CharField(
                help_text="The SHA-256 of the canonical record (Hand.record_hash).", max_length=64
            ),
        ),
        migrations.AlterField(
            model_name="analysisresult",
            name="record_hash",
            field=models.CharField(
                help_text="The SHA-256 of the canonical record (Hand.record_hash).", max_length=64
            ),
        ),
        migrations.AlterField(
            model_name="analysisresult",
            name="review",
            field=models.JSONField(help_text="The review's JSON (analysis.solver.review.Review)."),
        ),
        migrations.AddIndex(
            model_name="analysisjob",
            index=models.Index(fields=["record_hash", "-created"], name="analysis_job_record_newest"),
        ),
        migrations.AddConstraint(
            model_name="analysisjob",
            constraint=models.UniqueConstraint(
                fields=("record_hash", "params_key", "solver_version"),
                name="analysis_job_once_per_key",
            ),
        ),
    ]
