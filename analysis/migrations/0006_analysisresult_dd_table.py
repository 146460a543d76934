"""Results gain the deal's double-dummy table, worked out with the review; the next
migration fills it in for the reviews already made."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0005_analysisjob_once_per_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="analysisresult",
            name="dd_table",
            field=models.JSONField(
                blank=True,
                help_text="The deal's double-dummy table (analysis.solver.hindsight.DoubleDummy: "
                "the table, or {'error': why not}); null until worked out.",
                null=True,
            ),
        ),
    ]
