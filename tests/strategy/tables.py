"""Hand-built positions for the bot tests: deal named cards, apply actions written as text,
and ask a bot what it would do next."""

from __future__ import annotations

from games.bots import policy
from games.engine.cards import ALL_CARDS, Card, Seat, Team, parse_card, parse_seat, parse_suit
from games.engine.hand import NT, Action, Call, Discard, FarmerRedeal, FarmerSwap, HandState, Play
from games.engine.rules import Rules
from games.strategy.observation import Observation, observe


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def table(dealer: str, upcard: str, rules: Rules | None = None, /, **hands: str) -> HandState:
    """A deal with the named hands (``N="JH JD AH 9C 9S"``); seats not named get the
    remaining cards in deck order, the kitty the last three."""
    given = {parse_seat(seat): cards(text) for seat, text in hands.items()}
    named = [c for hand in given.values() for c in hand] + [parse_card(upcard)]
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    used = set(named)
    rest = [c for c in ALL_CARDS if c not in used]
    dealt: dict[Seat, list[Card | None]] = {}
    for seat in Seat:
        if seat in given:
            dealt[seat] = list(given[seat])
        else:
            dealt[seat], rest = list(rest[:5]), rest[5:]
    assert len(rest) == 3, "name at most twenty distinct cards"
    return HandState(rules or Rules(), parse_seat(dealer), dealt, parse_card(upcard), list(rest))


def action(text: str) -> Action:
    """``pass``, ``order``, ``order alone``, ``name S``, ``name NT alone``, ``defend alone``,
    ``discard 9C``, ``swap 9S 9H 9D``, ``redeal``, or a card to play (``JH``)."""
    words = text.split()
    alone = words[-1] == "alone"
    if words[0] == "pass":
        return Call("pass")
    if words[0] == "order":
        return Call("order_up", None, alone)
    if words[0] == "name":
        return Call("name", NT if words[1] == "NT" else parse_suit(words[1]), alone)
    if words[0] == "defend":
        return Call("defend_alone")
    if words[0] == "discard":
        return Discard(parse_card(words[1]))
    if words[0] == "swap":
        a, b, c = cards(" ".join(words[1:]))
        return FarmerSwap((a, b, c))
    if words[0] == "redeal":
        return FarmerRedeal()
    return Play(parse_card(text))


def run(state: HandState, *actions: str) -> HandState:
    for text in actions:
        for part in text.split(","):
            state.apply(action(part.strip()))
    return state


def view(state: HandState, ns: int = 0, ew: int = 0) -> Observation:
    assert state.current_seat is not None
    return observe(state, state.current_seat, {Team.NS: ns, Team.EW: ew})


def normal(state: HandState, ns: int = 0, ew: int = 0) -> tuple[Action, str]:
    """The Normal bot's (the standard policy's) decision and reason for the seat to act."""
    return policy.decide_with_reason(view(state, ns, ew))
