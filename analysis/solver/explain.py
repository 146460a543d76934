"""One-sentence explanations for reviewed decisions.

A decision is marked by foresight (``analysis.solver.judgement``); hindsight (every card
visible) is only used here to say *how* the loss happens in this deal, never to blame a
decision on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Card, Rank, Seat, Suit, effective_suit
from games.strategy.policy import describe_hand

__all__ = ["Line", "explain_call", "explain_card", "short_name"]


def short_name(card: Card, trump: Suit | None = None) -> str:
    """``10♦``, ``J♥``; the bowers say which they are."""
    rank = "10" if card.rank is Rank.TEN else card.rank.letter
    text = rank + card.suit.symbol
    if trump is not None and card.rank is Rank.JACK:
        if card.suit is trump:
            text += " (the right bower)"
        elif effective_suit(card, trump) is trump:
            text += " (the left bower)"
    return text


@dataclass(frozen=True)
class Line:
    """A line of perfect play: the winner and winning card of each trick still to come."""

    first_trick: int
    """The number (1-5) of the first trick in ``winners``."""
    winners: tuple[tuple[Seat, Card], ...]


def _points(value: float) -> str:
    return f"{value:.2f} point" + ("" if abs(value - 1) < 0.005 else "s")


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
    """One sentence on why ``best`` beats ``chosen``, built from the analysis."""
    verb = "Discarding" if kind == "discard" else "Playing"
    mine, theirs = _name(chosen, trump), _name(best, trump)
    start = (
        f"{verb} the {mine} gives up {_points(loss)} on average against the {theirs}, "
        f"over {samples} layouts of the cards you could not see"
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
        if ours_best:
            return (
                f"{start}: in this deal {_who(w_chosen, seat)} then takes trick {trick} with "
                f"the {_name(c_chosen, trump)}, a trick the {theirs} would have kept for your side."
            )
        return (
            f"{start}: in this deal the {theirs} gives {_who(w_best, seat)} trick {trick} "
            f"with the {_name(c_best, trump)}, and your side wins more of the tricks after it."
        )
    return f"{start}; with every card visible, this deal happens to come out the same."


def _name(card: Card, trump: Suit | None) -> str:
    return short_name(card, trump)


def _who(winner: Seat, seat: Seat) -> str:
    if winner is seat:
        return "you"
    if winner is seat.partner:
        return f"your partner ({winner.word})"
    return winner.word


def _call_words(label: str) -> str:
    """``order_up alone`` -> ``ordering up alone``; ``name H`` -> ``naming hearts``."""
    words = label.split()
    alone = " alone" if words[-1] == "alone" else ""
    kind = words[0]
    if kind == "pass":
        return "passing"
    if kind == "order_up":
        return "ordering up" + alone
    if kind == "defend_alone":
        return "defending alone"
    if kind == "farmer":
        return "asking for a redeal" if words[1] == "redeal" else "swapping a farmer's hand"
    strain = words[1]
    suit = "no-trump" if strain == "NT" else Suit(strain).plural
    return f"naming {suit}{alone}"


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
    mine, theirs = _call_words(chosen), _call_words(best)
    sentence = (
        f"{mine.capitalize()} gives up {_points(loss)} on average against {theirs}, "
        f"over {samples} layouts of the cards you could not see "
        f"({theirs} averaged {best_ev:+.2f}, {mine} {chosen_ev:+.2f})"
    )
    if isinstance(best_strain, Suit):
        cards = list(hand)
        if best.startswith("order_up") and gets_upcard and upcard not in cards:
            cards.append(upcard)
        reason = describe_hand(cards, best_strain)
        sentence += f": {reason[0].lower()}{reason[1:]}"
    return sentence + "."
