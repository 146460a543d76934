"""A small blocking client of the event stream for the tests: it reads events (``id:``,
``data:``) and comments off a real connection, with a time limit on every read."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Any


@dataclass
class Event:
    id: int | None
    data: dict[str, Any]


class Stream:
    def __init__(
        self, port: int, path: str, *, token: str = "", headers: dict[str, str] | None = None
    ) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        sent = {"Accept": "text/event-stream", **(headers or {})}
        if token:
            sent["Authorization"] = f"Token {token}"
        self.connection.request("GET", path, headers=sent)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.retry: int | None = None

    def json(self) -> Any:
        return json.loads(self.response.read())

    def next_event(self) -> Event:
        """The next event; comments and ``retry:`` lines are skipped."""
        event_id: int | None = None
        data: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                raise EOFError("The stream ended")
            line = raw.decode().rstrip("\r\n")
            if line.startswith("retry:"):
                self.retry = int(line[6:])
            elif line.startswith("id:"):
                event_id = int(line[3:].strip())
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and data:
                return Event(event_id, json.loads("\n".join(data)))

    def events(self, count: int) -> list[Event]:
        return [self.next_event() for _ in range(count)]

    def rest(self) -> list[Event]:
        """Every event until the server ends the stream."""
        out = []
        while True:
            try:
                out.append(self.next_event())
            except EOFError:
                return out

    def close(self) -> None:
        self.connection.close()
