"""Hand records several test modules share."""

from __future__ import annotations

from typing import Any

SPEC_RECORD: dict[str, Any] = {
    "format": "euchre-hand/1",
    "rules": {"stick_the_dealer": True},
    "dealer": "W",
    "hands": {
        "N": ["JH", "AH", "9C", "KD", "TS"],
        "E": ["QH", "9H", "AC", "KC", "QS"],
        "S": ["JD", "TH", "AS", "9D", "JC"],
        "W": ["KH", "QD", "AD", "KS", "9S"],
    },
    "upcard": "TC",
    "kitty": ["QC", "JS", "TD"],
    "farmer": None,
    "auction": [
        {"seat": "N", "call": "pass"},
        {"seat": "E", "call": "pass"},
        {"seat": "S", "call": "pass"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "name", "suit": "H", "alone": False},
    ],
    "discard": None,
    "play": ["JH", "QH", "JD", "KH", "AH", "9H", "TH", "QD"],
}
"""The example of ``shared/spec/hand-record.md``: W deals, N names hearts, two tricks played."""

MARCH: dict[str, Any] = {
    "dealer": "W",
    "hands": {
        "N": ["JH", "JD", "AH", "KH", "QH"],
        "E": ["AS", "KS", "QS", "JS", "TS"],
        "S": ["AD", "KD", "QD", "TD", "9D"],
        "W": ["AC", "KC", "QC", "JC", "TC"],
    },
    "upcard": "9S",
    "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
    "play": "JH AS AD AC JD KS KD KC AH QS QD QC KH JS TD JC QH TS 9D TC",
}
"""North holds the five top trumps and marches; every seat holds one suit."""
