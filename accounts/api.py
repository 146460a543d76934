"""JSON API views for accounts (see euchre_site/api_urls.py)."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from .serializers import MeSerializer


@extend_schema(responses=MeSerializer, summary="The logged-in user")
@api_view(["GET"])
def me(request: Request) -> Response:
    return Response(MeSerializer(request.user).data)
