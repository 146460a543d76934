"""The table page's view-model, drawn from the state seen from a seat (the API's state,
shared/spec/tables.md): whatever the page shows, a program reading the API could see too.

The seats are laid out with the play page's :class:`games.table.SeatView` (the viewer at
the bottom; a spectator sees the table from South) and drawn with the same
``games/_seat.html``; the cards with :func:`games.table.card_view`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.actions import parse_action
from games.engine.cards import Seat, Suit, parse_card, parse_seat, parse_suit
from games.engine.hand import Call, FarmerRedeal, FarmerSwap
from games.engine.words import card_text, strain_text
from games.table import CardView, Control, SeatView, card_view, places, sort_hand

PHASE_PROMPTS = {
    "auction": "Your call.",
    "discard": "You picked up the upcard: choose a card to discard.",
    "play": "Your turn: play a card.",
    "defend": "Will you defend alone?",
    "farmer": "You hold a farmer's hand. Swap it, or keep your cards.",
}

STATUS_WORDS = {
    "open": "Waiting for players",
    "playing": "Playing",
    "finished": "Finished",
    "abandoned": "Abandoned",
}


@dataclass
class SeatChoice:
    """An empty seat and what the viewer may do about it."""

    seat: str
    name: str
    can_sit: bool
    can_fill: bool


@dataclass
class TableView:
    status: str
    status_words: str
    version: int
    you: str | None
    seats: dict[str, SeatView]
    """Each seat by its place on the felt (``bottom`` is the viewer's)."""
    hand: list[CardView]
    cards_are_buttons: bool
    controls: list[Control]
    prompt: str
    your_turn: bool
    turn_words: str
    deadline: str | None
    upcard: CardView | None
    upcard_note: str
    trump: str
    maker: str
    scores: dict[str, int]
    tricks_won: dict[str, int]
    team_names: dict[str, str]
    last_trick: list[tuple[str, CardView]] = field(default_factory=list)
    last_trick_winner: str = ""
    auction: list[tuple[str, str]] = field(default_factory=list)
    hand_number: int = 0
    empty: list[SeatChoice] = field(default_factory=list)
    focus: str = ""


def _trump(state: dict[str, Any]) -> Suit | None:
    trump = state.get("trump")
    if not trump or trump == "NT":
        return None
    return parse_suit(trump)


def seat_label(seat: str, occupant: Any) -> str:
    """Who sits at ``seat``: the person's name, ``Computer player (normal)``, or
    ``Empty seat``."""
    if isinstance(occupant, dict) and occupant.get("user"):
        return str(occupant["user"])
    if isinstance(occupant, dict) and occupant.get("bot"):
        return f"Computer player ({occupant['bot']})"
    return "Empty seat"


def _sits_out(state: dict[str, Any]) -> set[Seat]:
    out = set()
    if state.get("alone") and state.get("maker"):
        out.add(parse_seat(state["maker"]).partner)
    if state.get("defender_alone"):
        out.add(parse_seat(state["defender_alone"]).partner)
    return out


def _trick_cards(trick: dict[str, Any], skip: set[Seat]) -> list[tuple[Seat, str]]:
    """The trick's cards with who played each: from the leader round the table, past the
    seats that sit out."""
    seat = parse_seat(trick["leader"])
    out = []
    for card in trick.get("cards") or []:
        while seat in skip:
            seat = seat.next
        out.append((seat, card))
        seat = seat.next
    return out


def control_words(text: str, state: dict[str, Any]) -> str:
    """The button for a legal action (its text as the API writes it)."""
    try:
        action = parse_action(text)
    except ValueError:
        return text
    if isinstance(action, FarmerSwap):
        return "Swap " + " ".join(card_text(c) for c in action.cards) + " for the kitty"
    if isinstance(action, FarmerRedeal):
        return "Show my farmer's hand and ask for a redeal"
    if not isinstance(action, Call):
        return text
    alone = " and go alone" if action.alone else ""
    if action.kind == "pass":
        phase = state.get("phase")
        return {"farmer": "Keep my hand", "defend": "Don't defend alone"}.get(str(phase), "Pass")
    if action.kind == "defend_alone":
        return "Defend alone"
    if action.kind == "order_up":
        upcard = state.get("upcard")
        verb = "Pick it up" if state.get("dealer") == state.get("you") else "Order it up"
        suit = f" ({strain_text(parse_card(upcard).suit)} trump)" if upcard else ""
        return f"{verb}{suit}{alone}"
    if action.suit == "NT":
        return f"Call no-trump{alone}"
    assert action.suit is not None
    return f"Name {strain_text(action.suit)}{alone}"


def _phase(state: dict[str, Any], legal: list[str]) -> str:
    if state.get("phase"):
        return str(state["phase"])
    if any(a.startswith("discard ") for a in legal):
        return "discard"
    if any(a.startswith("play ") for a in legal):
        return "play"
    if any(a.startswith("farmer") for a in legal):
        return "farmer"
    if "defend_alone" in legal:
        return "defend"
    return "auction"


def build(state: dict[str, Any], *, is_host: bool) -> TableView:
    """The page's table for the viewer whose state this is."""
    you = state.get("you")
    viewer = parse_seat(you) if you else Seat.S
    trump = _trump(state)
    status = str(state.get("status", "open"))
    seats_state = state.get("seats") or {}
    cards_left = state.get("cards_left") or {}
    turn = state.get("turn")
    skip = _sits_out(state) if status == "playing" else set()

    trick = state.get("trick") or {}
    tricks = state.get("tricks") or []
    shown = trick if trick.get("cards") else (tricks[-1] if tricks else None)
    played = dict(_trick_cards(shown, skip)) if shown else {}
    winner = shown.get("winner") if shown is not None and shown is not trick else None

    views: dict[str, SeatView] = {}
    for seat, place in places(viewer):
        occupant = seats_state.get(seat.value)
        role = seat_label(seat.value, occupant)
        badge = ""
        if turn == seat.value and status == "playing":
            badge = "Your turn" if seat.value == you else "To act"
        count = cards_left.get(seat.value)
        card = played.get(seat)
        views[place] = SeatView(
            seat=seat,
            place=place,
            name=seat.word,
            role=role,
            you=seat.value == you,
            is_dealer=state.get("dealer") == seat.value and status == "playing",
            turn=badge,
            sits_out=seat in skip,
            cards=None,
            count=None if seat.value == you or count is None else int(count),
            played=None if card is None else card_view(parse_card(card), trump),
            won_trick=winner == seat.value,
        )

    legal = list(state.get("legal") or [])
    legal_set = set(legal)
    phase = _phase(state, legal)
    hand_cards = []
    for held in sort_hand([parse_card(c) for c in state.get("hand") or []], trump):
        post = f"discard {held}" if phase == "discard" else f"play {held}"
        hand_cards.append(card_view(held, trump, action=post, enabled=post in legal_set))
    your_turn = bool(legal)
    cards_are_buttons = your_turn and phase in ("discard", "play")
    controls = [] if cards_are_buttons else [Control(a, control_words(a, state)) for a in legal]

    upcard = state.get("upcard")
    maker = state.get("maker")
    strain = state.get("trump")
    if turn and status == "playing":
        turn_words = "Your turn." if turn == you else f"{parse_seat(turn).word} to act."
    else:
        turn_words = ""
    score = state.get("score") or {}
    won = state.get("tricks_won") or {}
    names = {
        "NS": "North and South" + (" (you)" if viewer in (Seat.N, Seat.S) and you else ""),
        "EW": "East and West" + (" (you)" if viewer in (Seat.E, Seat.W) and you else ""),
    }

    last_trick: list[tuple[str, CardView]] = []
    last_winner = ""
    if tricks:
        done = tricks[-1]
        last_trick = [
            (seat.word, card_view(parse_card(c), trump)) for seat, c in _trick_cards(done, skip)
        ]
        if done.get("winner"):
            last_winner = parse_seat(done["winner"]).word

    empty = []
    if status == "open":
        for seat in Seat:
            occupant = seats_state.get(seat.value)
            if occupant in (None, "empty", {}) or not isinstance(occupant, dict):
                empty.append(
                    SeatChoice(seat.value, seat.word, can_sit=you is None, can_fill=is_host)
                )

    auction = []
    for entry in state.get("auction") or []:
        who = parse_seat(entry["seat"]).word
        call = str(entry.get("call", ""))
        auction.append((who, call.replace("_", " ") + (" alone" if entry.get("alone") else "")))

    return TableView(
        status=status,
        status_words=STATUS_WORDS.get(status, status),
        version=int(state.get("version", 0)),
        you=you,
        seats=views,
        hand=hand_cards,
        cards_are_buttons=cards_are_buttons,
        controls=controls,
        prompt=PHASE_PROMPTS.get(phase, "") if your_turn else "",
        your_turn=your_turn,
        turn_words=turn_words,
        deadline=state.get("deadline") if status == "playing" else None,
        upcard=card_view(parse_card(upcard), trump) if upcard else None,
        upcard_note="Upcard" if not strain else "",
        trump="" if not strain else strain_text("NT" if strain == "NT" else parse_suit(strain)),
        maker=""
        if not maker
        else parse_seat(maker).word + (" alone" if state.get("alone") else ""),
        scores={"NS": int(score.get("NS", 0)), "EW": int(score.get("EW", 0))},
        tricks_won={"NS": int(won.get("NS", 0)), "EW": int(won.get("EW", 0))},
        team_names=names,
        last_trick=last_trick,
        last_trick_winner=last_winner,
        auction=auction,
        hand_number=int(state.get("hand_number") or 0),
        empty=empty,
        focus=next((c.action for c in controls), "")
        or next((c.action for c in hand_cards if c.enabled), ""),
    )
