"""The API's JSON body parser: DRF's, with the nesting bounded.

DRF's ``JSONParser`` hands the body to :func:`json.load`, which recurses once a level: a
body nested ten thousand deep raised ``RecursionError``, a 500. This one refuses a body
nested past :data:`games.engine.jsontext.MAX_DEPTH` with DRF's ``ParseError`` (400),
naming the limit, before parsing it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.engine.jsontext import MAX_DEPTH, deeper_than


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        body = stream.read()
        try:
            text = body.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(f"JSON parse error - the body is not {encoding} text") from None
        at = deeper_than(text)
        if at is not None:
            raise ParseError(
                f"JSON parse error - nested more than {MAX_DEPTH} levels deep (the limit), "
                f"at character {at}"
            )
        return super().parse(io.BytesIO(body), media_type, parser_context)
