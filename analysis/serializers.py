from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import AnalysisJob
from .solver.foresight import SAMPLERS
from .solver.review import SOLVER_VERSION, ReviewParams

PARAM_NAMES = frozenset(ReviewParams().to_json())


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(source="progress_done")
    total = serializers.IntegerField(source="progress_total", allow_null=True)


class AnalysisJobSerializer(serializers.ModelSerializer):
    """An analysis job: its status, progress, timings and, once done, the review."""

    progress = ProgressSerializer(source="*")
    current_solver_version = serializers.SerializerMethodField()
    current_params = serializers.SerializerMethodField(
        help_text="The parameters a new analysis gets by default: compare with `params`."
    )
    requested_at = serializers.DateTimeField(source="created")
    result = serializers.SerializerMethodField()

    class Meta:
        model = AnalysisJob
        fields: tuple[str, ...] = (
            "id",
            "status",
            "queue",
            "params",
            "solver_version",
            "current_solver_version",
            "current_params",
            "progress",
            "attempts",
            "error",
            "from_cache",
            "requested_at",
            "started_at",
            "finished_at",
            "result",
        )

    def get_current_solver_version(self, job: AnalysisJob) -> str:
        return SOLVER_VERSION

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "samples": {"type": "integer"},
                "seed": {"type": "integer"},
                "sampler": {"type": "string", "enum": list(SAMPLERS)},
            },
            "required": ["samples", "seed"],
        }
    )
    def get_current_params(self, job: AnalysisJob) -> dict[str, Any]:
        return ReviewParams().to_json()

    @extend_schema_field({"type": "object", "nullable": True})
    def get_result(self, job: AnalysisJob) -> dict[str, Any] | None:
        """The review (analysis.solver.review.review_hand) once the job is done."""
        return job.result.review if job.result is not None else None


class AnalysisRequestSerializer(serializers.Serializer):
    params = serializers.DictField(
        required=False,
        help_text="Review parameters: samples (layouts a decision, 1 to ANALYSIS_MAX_SAMPLES, "
        f"{ReviewParams.samples} by default), seed ({ReviewParams.seed} by default) and sampler "
        f"(how the layouts are drawn: {' or '.join(SAMPLERS)}, {ReviewParams.sampler} by "
        "default).",
    )
    solver_version = serializers.CharField(
        required=False,
        help_text="Give the current solver version to redo an analysis an older one made.",
    )

    def validate_params(self, value: dict[str, Any]) -> ReviewParams:
        unknown = sorted(set(value) - PARAM_NAMES)
        if unknown:
            raise serializers.ValidationError(f"unknown parameter {unknown[0]!r}")
        try:
            params = ReviewParams.from_json(value)
        except ValueError as error:
            raise serializers.ValidationError(str(error)) from None
        if params.samples > settings.ANALYSIS_MAX_SAMPLES:
            raise serializers.ValidationError(
                f"samples: at most {settings.ANALYSIS_MAX_SAMPLES} a request on this site"
            )
        return params

    def validate_solver_version(self, value: str) -> str:
        if value != SOLVER_VERSION:
            raise serializers.ValidationError(
                f"this server runs solver version {SOLVER_VERSION} only"
            )
        return value
