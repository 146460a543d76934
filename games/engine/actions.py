"""Actions as short text, for games saved as their action histories.

``format_action`` and ``parse_action`` round-trip every action a hand can take:

>>> from games.engine.cards import Suit, parse_card
>>> format_action(Call("name", Suit.HEARTS, alone=True))
'name H alone'
>>> parse_action("play JD") == Play(parse_card("JD"))
True
>>> parse_action("name X")
Traceback (most recent call last):
...
games.engine.errors.ActionError: action 'name X': unknown suit 'X' (expected S, H, D or C)
"""

from __future__ import annotations

from .cards import parse_card, parse_suit
from .errors import ActionError, CardError, shown
from .hand import NT, Action, Call, Discard, FarmerRedeal, FarmerSwap, Play, Strain

__all__ = ["format_action", "parse_action"]


def format_action(action: Action) -> str:
    """``pass``, ``order_up [alone]``, ``name S|H|D|C|NT [alone]``, ``defend_alone``,
    ``discard JH``, ``play JH``, ``farmer 9S 9H 9D`` or ``farmer_redeal``."""
    if isinstance(action, Call):
        text: str = action.kind
        if action.kind == "name" and action.suit is not None:
            text += f" {action.suit}"
        return text + (" alone" if action.alone else "")
    if isinstance(action, Discard):
        if action.card is None:
            raise ActionError("", "an unknown discard has no text form")
        return f"discard {action.card}"
    if isinstance(action, Play):
        return f"play {action.card}"
    if isinstance(action, FarmerSwap):
        return "farmer " + " ".join(str(c) for c in action.cards)
    return "farmer_redeal"


def _strain(text: str) -> Strain:
    return NT if text == NT else parse_suit(text)


def parse_action(text: object) -> Action:
    """Read the text :func:`format_action` writes; raises :class:`ActionError`."""
    if not isinstance(text, str) or not text.strip():
        raise ActionError("", f"expected an action such as 'play JH', got {shown(text)}")
    words = text.split()
    head, rest = words[0], words[1:]
    alone = bool(rest) and rest[-1] == "alone"
    if alone:
        rest = rest[:-1]
    try:
        if head == "pass" and not rest and not alone:
            return Call("pass")
        if head == "order_up" and not rest:
            return Call("order_up", None, alone)
        if head == "name" and len(rest) == 1:
            return Call("name", _strain(rest[0].upper()), alone)
        if head == "defend_alone" and not rest and not alone:
            return Call("defend_alone")
        if head == "discard" and len(rest) == 1 and not alone:
            return Discard(parse_card(rest[0]))
        if head == "play" and len(rest) == 1 and not alone:
            return Play(parse_card(rest[0]))
        if head == "farmer" and len(rest) == 3 and not alone:
            a, b, c = (parse_card(word) for word in rest)
            return FarmerSwap((a, b, c))
        if head == "farmer_redeal" and not rest and not alone:
            return FarmerRedeal()
    except CardError as error:
        raise ActionError(f"action {shown(text)}", error.problem) from None
    raise ActionError("", f"unknown action {shown(text)}")
