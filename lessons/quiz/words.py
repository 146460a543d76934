"""Cards, suits and seats in the words the questions and explanations use."""

from __future__ import annotations

from games.engine.cards import Card, Rank, Suit, Team

__all__ = ["team_word", "the", "trump_sentence", "what_it_is"]


def the(card: Card) -> str:
    """'the jack of diamonds'."""
    return f"the {card.rank.word} of {card.suit.plural}"


def trump_sentence(trump: Suit | None) -> str:
    if trump is None:
        return "The hand is played at no-trump: there is no trump suit and there are no bowers."
    return f"{trump.plural.capitalize()} are trump."


def team_word(team: Team) -> str:
    return "North-South" if team is Team.NS else "East-West"


def what_it_is(card: Card, trump: Suit | None) -> str:
    """What a card is under ``trump``: 'the jack of diamonds (the left bower, a heart)'."""
    if trump is not None and card.rank is Rank.JACK:
        if card.suit is trump:
            return f"{the(card)} (the right bower)"
        if card.suit is trump.same_colour:
            return f"{the(card)} (the left bower, a {trump.plural[:-1]})"
    return the(card)
