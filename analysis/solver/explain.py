"""One-sentence explanations for reviewed decisions.

A decision is marked by foresight (``analysis.solver.judgement``); hindsight (every card
visible) is only used here to say *how* the loss happens in this deal, never to blame a
decision on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Card, Seat, Suit
from games.engine.words import call_words, describe_hand, points_text, short_name, the_short, who

__all__ = ["Line", "explain_call", "explain_card"]


@dataclass(frozen=True)
class Line:
    """A line of perfect play: the winner and winning card of each trick still to come."""

    first_trick: int
    """The number (1-5) of the first trick in ``winners``."""
    winners: tuple[tuple[Seat, Card], ...]


def explain_card(
    *,
    kind: str,
    seat: Seat,
    chosen: Card,
    best: Card,
    loss: float,
    samples: int,
    trump: Suit | None,
    chosen_line: Line | None,
    best_line: Line | None,
) -> str:
    """One sentence on why ``best`` beats ``chosen``, built from the analysis.

    >>> from games.engine.cards import parse_card
    >>> print(explain_card(kind="play", seat=Seat.S, chosen=parse_card("9H"),
    ...     best=parse_card("JD"), loss=0.5, samples=100, trump=Suit.HEARTS,
    ...     chosen_line=None, best_line=None))  # doctest: +NORMALIZE_WHITESPACE
    Playing the 9♥ gives up 0.50 points on average against the J♦ (the left bower),
    over 100 deals of the cards you could not see.
    """
    verb = "Discarding" if kind == "discard" else "Playing"
    mine, theirs = short_name(chosen, trump), short_name(best, trump)
    start = (
        f"{verb} the {mine} gives up {points_text(loss)} on average against the {theirs}, "
        f"over {samples:,} deals of the cards you could not see"
    )
    if chosen_line is None or best_line is None:
        return start + "."
    for (w_chosen, c_chosen), (w_best, c_best), trick in zip(
        chosen_line.winners,
        best_line.winners,
        range(chosen_line.first_trick, 6),
        strict=False,
    ):
        ours_chosen = w_chosen.team is seat.team
        ours_best = w_best.team is seat.team
        if ours_chosen == ours_best:
            continue
        if ours_best and kind == "discard":
            # A discarded card plays no trick: say what the other discard leads to.
            return (
                f"{start}: in this deal {who(w_chosen, seat)} then takes trick {trick} with "
                f"{the_short(c_chosen, trump)}, a trick your side wins when you discard the "
                f"{theirs} instead."
            )
        if ours_best:
            return (
                f"{start}: in this deal {who(w_chosen, seat)} then takes trick {trick} with "
                f"{the_short(c_chosen, trump)}, a trick the {theirs} would have kept for your side."
            )
        if kind == "discard":
            return (
                f"{start}: in this deal, when you discard the {theirs}, {who(w_best, seat)} "
                f"takes trick {trick} with {the_short(c_best, trump)}, and your side wins more "
                f"of the tricks after it."
            )
        return (
            f"{start}: in this deal the {theirs} gives {who(w_best, seat)} trick {trick} "
            f"with {the_short(c_best, trump)}, and your side wins more of the tricks after it."
        )
    return f"{start}; with every card visible, this deal happens to come out the same."


def explain_call(
    *,
    chosen: str,
    best: str,
    chosen_ev: float,
    best_ev: float,
    loss: float,
    samples: int,
    hand: list[Card],
    upcard: Card,
    gets_upcard: bool,
    best_strain: object,
) -> str:
    """One sentence on a bidding decision: what the better call was worth, and why."""
    mine, theirs = call_words(chosen), call_words(best)
    sentence = (
        f"{mine.capitalize()} gives up {points_text(loss)} on average against {theirs}, "
        f"over {samples:,} deals of the cards you could not see "
        f"({theirs} averaged {best_ev:+.2f}, {mine} {chosen_ev:+.2f})"
    )
    if isinstance(best_strain, Suit):
        cards = list(hand)
        if best.startswith("order_up") and gets_upcard and upcard not in cards:
            cards.append(upcard)
        reason = describe_hand(cards, best_strain)
        sentence += f": {reason[0].lower()}{reason[1:]}"
    return sentence + "."
