"""How a lesson's exercise looks on the page: its facts and its choices in words, cards as
text with suit symbols, each with the name a screen reader says."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.cards import Suit, Team, parse_card, parse_seat, parse_suit
from games.engine.words import card_name, card_text, scores_text, team_word


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
    card = parse_card(value)
    return Choice(value, card_text(card), card_name(card, trump), card.suit.is_red, card=True)


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
    if kind == "points":
        side, points = value.split()
        text = f"{team_word(Team(side))} score {points}"
        return Choice(value, text, text)
    text = value.replace("_", " ")
    if text == "none":
        text = "None of them"
    return Choice(value, text, text)


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
    if "score" in exercise:
        score = exercise["score"]
        out.append(Fact("Score", [], scores_text(score["NS"], score["EW"])))
    return out
