"""The double-dummy table of every review already made, from the record of its job (about
5 ms a deal). A result whose record no job holds any more keeps none until a job of its
key runs again, which fills it in on the worker."""

from typing import Any

from django.db import migrations

# The solver of today, as a worker would run it: the tables are derived data.
from analysis.solver.hindsight import double_dummy
from games.engine.errors import RecordError
from games.engine.record import parse_record


def fill_dd_tables(apps: Any, schema_editor: Any) -> None:
    AnalysisJob = apps.get_model("analysis", "AnalysisJob")
    AnalysisResult = apps.get_model("analysis", "AnalysisResult")
    tables: dict[str, dict[str, Any]] = {}
    for result in AnalysisResult.objects.filter(dd_table__isnull=True).order_by("pk"):
        if result.record_hash not in tables:
            record = (
                AnalysisJob.objects.filter(record_hash=result.record_hash)
                .values_list("record", flat=True)
                .first()
            )
            if record is None:
                continue
            try:
                tables[result.record_hash] = double_dummy(parse_record(record)).to_json()
            except RecordError as error:
                tables[result.record_hash] = {"error": f"invalid record: {error}"}
        result.dd_table = tables[result.record_hash]
        result.save(update_fields=["dd_table"])


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0006_analysisresult_dd_table"),
    ]

    operations = [
        migrations.RunPython(fill_dd_tables, migrations.RunPython.noop),
    ]
