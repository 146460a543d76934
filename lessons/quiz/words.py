"""Cards, suits and seats in the words the questions and explanations use."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import Bower, Card, Suit, Team, bower
from games.engine.hand import NT, Strain

__all__ = [
    "NUMBERS",
    "and_list",
    "are_trump",
    "capital",
    "team_word",
    "the",
    "the_with_role",
    "trump_sentence",
    "what_it_is",
]

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")
"""Counts of cards in words, from none to six."""


def and_list(words: Sequence[str]) -> str:
    """Words joined as a sentence lists them: 'spades, hearts and clubs'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def capital(text: str) -> str:
    """``text`` with its first letter a capital (the rest untouched; empty stays empty)."""
    return text[:1].upper() + text[1:]


def the(card: Card) -> str:
    """'the jack of diamonds'."""
    return f"the {card.rank.word} of {card.suit.plural}"


def the_with_role(card: Card, trump: Suit | None) -> str:
    """A card's name, a bower's role in brackets: 'the jack of diamonds (the left bower)'."""
    which = bower(card, trump)
    return the(card) if which is None else f"{the(card)} (the {which.word})"


def are_trump(strain: Strain) -> str:
    """What is trump, for a question to go on from: 'Hearts are trump', 'No-trump was
    named'."""
    if strain == NT:
        return "No-trump was named"
    assert isinstance(strain, Suit)
    return f"{strain.plural.capitalize()} are trump"


def trump_sentence(trump: Suit | None) -> str:
    if trump is None:
        return "The hand is played at no-trump: there is no trump suit and there are no bowers."
    return f"{trump.plural.capitalize()} are trump."


def team_word(team: Team) -> str:
    return "North-South" if team is Team.NS else "East-West"


def what_it_is(card: Card, trump: Suit | None) -> str:
    """What a card is under ``trump``: 'the jack of diamonds (the left bower, a heart)'."""
    which = bower(card, trump)
    if which is Bower.RIGHT:
        return f"{the(card)} (the right bower)"
    if which is Bower.LEFT:
        assert trump is not None
        return f"{the(card)} (the left bower, a {trump.plural[:-1]})"
    return the(card)
