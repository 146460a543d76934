"""How a lesson's exercise looks on the page: its facts and its choices in words, cards as
text with suit symbols, each with the name a screen reader says."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.cards import Suit, Team, parse_card, parse_seat, parse_suit
from games.engine.errors import RecordError
from games.engine.record import parse_record
from games.engine.rules import parse_rules
from games.engine.words import call_option, card_name, card_text, scores_text, team_word

from .quiz.house_rules import auction_text, bidding_rules_text, farmers_rules_text
from .quiz.table_rules import lone_lead_text, scoring_text

CALL_KINDS = ("pass", "order_up", "name", "defend_alone", "farmer")
"""The first word of every call label (:func:`games.engine.words.call_label`)."""


@dataclass(frozen=True)
class Choice:
    value: str
    text: str
    label: str
    red: bool = False
    card: bool = False
    """Shown as a playing card (otherwise as a plain button)."""


@dataclass(frozen=True)
class Fact:
    name: str
    cards: list[Choice]
    text: str = ""


def _trump(exercise: dict[str, Any]) -> Suit | None:
    value = exercise.get("trump")
    if not value or value == "NT":
        return None
    return parse_suit(value)


def card_choice(value: str, trump: Suit | None) -> Choice:
    """A card as a button or in the facts. Its spoken name is the card alone (``Jack of
    diamonds``), as its face is: saying "left bower" would answer the questions about
    the bowers for those who listen. ``trump`` is kept for the callers' sake."""
    card = parse_card(value)
    return Choice(value, card_text(card), card_name(card), card.suit.is_red, card=True)


def earlier_tricks(exercise: dict[str, Any]) -> list[Fact]:
    """The tricks played before the question, from the record of the hand so far that a
    question about a hand in play carries (``record``): each trick's cards in the order
    played, who led it and who won it."""
    if not isinstance(exercise.get("record"), dict):
        return []
    try:
        state = parse_record(exercise["record"]).state
    except (RecordError, ValueError, KeyError, TypeError):
        return []
    trump = state.strain if isinstance(state.strain, Suit) else None
    out = []
    complete = [t for t in state.tricks if len(t.cards) == len(state.active_seats)]
    for number, trick in enumerate(complete, start=1):
        seats = ", ".join(seat.word for seat, _ in trick.cards)
        winner = state.trick_winner(trick).word
        out.append(
            Fact(
                f"Trick {number}",
                [card_choice(str(card), trump) for _, card in trick.cards],
                f"played in turn by {seats}; {winner} won it",
            )
        )
    return out


def choice(value: str, kind: str, trump: Suit | None) -> Choice:
    """One answer button."""
    if (
        kind in ("winner", "trumps", "legal", "farmers_hand", "best_card", "discard")
        and value != "none"
    ):
        try:
            return card_choice(value, trump)
        except ValueError:
            pass
    if kind == "effective_suit":
        suit = parse_suit(value)
        return Choice(value, f"{suit.symbol} {suit.plural}", suit.plural, suit.is_red)
    if kind == "leader":
        seat = parse_seat(value)
        return Choice(value, seat.word, seat.word)
    if kind in ("call", "legal_calls") and value.split(" ")[0] in CALL_KINDS:
        text = call_option(value)
        return Choice(value, text, text)
    if kind == "points":
        side, points = value.split()
        text = f"{team_word(Team(side))} score {points}"
        return Choice(value, text, text)
    text = value.replace("_", " ")
    if text == "none":
        text = "None of them"
    return Choice(value, text, text)


def _label(call: str | dict[str, Any]) -> str:
    """A call as a label (``pass``, ``name H alone``): a lesson's auction holds labels, a
    quiz position's the record's call objects."""
    if isinstance(call, str):
        return call
    label = str(call["call"]) + (f" {call['suit']}" if call["call"] == "name" else "")
    return label + (" alone" if call.get("alone") else "")


def facts(exercise: dict[str, Any]) -> list[Fact]:
    """What the learner is shown besides the question: trump, the hand, the trick…"""
    trump = _trump(exercise)
    out: list[Fact] = []
    if exercise.get("trump") == "NT":
        out.append(Fact("Trump", [], "no-trump"))
    elif trump is not None:
        out.append(Fact("Trump", [], f"{trump.symbol} {trump.plural}"))
    if "card" in exercise:
        out.append(Fact("The card", [card_choice(exercise["card"], trump)]))
    out.extend(earlier_tricks(exercise))
    if "trick" in exercise and exercise["trick"]:
        played = [card_choice(card, trump) for _, card in exercise["trick"]]
        seats = ", ".join(parse_seat(seat).word for seat, _ in exercise["trick"])
        out.append(Fact("The trick so far", played, f"played in turn by {seats}"))
    if "hand" in exercise and exercise["kind"] not in (
        "trumps",
        "legal",
        "farmers_hand",
        "discard",
    ):
        # Where the hand is what the learner chooses from, the choices show it.
        out.append(Fact("The hand", [card_choice(card, trump) for card in exercise["hand"]]))
    if "upcard" in exercise:
        out.append(Fact("The upcard", [card_choice(exercise["upcard"], None)]))
    if "dealer" in exercise:
        out.append(Fact("The dealer", [], parse_seat(exercise["dealer"]).word))
    if "seat" in exercise:
        out.append(Fact("You are", [], parse_seat(exercise["seat"]).word))
    if exercise["kind"] == "legal_calls":
        # A bidding exercise shows all it assumes: who has spoken, and the table's options.
        dealer = parse_seat(exercise["dealer"])
        calls = [_label(call) for call in exercise["auction"]]
        out.append(Fact("The bidding so far", [], auction_text(dealer, calls)))
    table = table_rules(exercise)
    if table:
        out.append(Fact("Table rules", [], table))
    if "score" in exercise:
        score = exercise["score"]
        out.append(Fact("Score", [], scores_text(score["NS"], score["EW"])))
    return out


def table_rules(exercise: dict[str, Any]) -> str:
    """The table's options that the answer of ``exercise`` depends on, in a sentence (empty
    where no option changes it): the options of the bidding, who leads a lone hand, the
    points of each result (and the target where the score is shown), the farmer's hand."""
    rules = parse_rules(exercise.get("rules"))
    kind = exercise["kind"]
    if kind == "legal_calls":
        text = bidding_rules_text(rules)
    elif kind == "leader" and exercise.get("alone"):
        text = lone_lead_text(rules)
    elif kind == "points":
        text = f"points: {scoring_text(rules)}"
        if "score" in exercise:
            text += f"; the game is to {rules.target} points"
    elif kind == "farmers_hand":
        text = farmers_rules_text(rules)
    else:
        return ""
    return text[0].upper() + text[1:] + "."
