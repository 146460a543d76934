"""The review's sentences for a card or a discard (analysis.solver.explain)."""

from __future__ import annotations

from analysis.solver.explain import Line, explain_card
from games.engine.cards import Seat, Suit, parse_card


def sentence(kind: str, ours_with_best: bool) -> str:
    """South's choice against the best, in a deal where trick 2 goes the other way."""
    theirs = (Seat.E, parse_card("AS"))
    ours = (Seat.S, parse_card("KS"))
    chosen = Line(2, (theirs if ours_with_best else ours,))
    best = Line(2, (ours if ours_with_best else theirs,))
    return explain_card(
        kind=kind,
        seat=Seat.S,
        chosen=parse_card("TS"),
        best=parse_card("9C"),
        loss=0.65,
        samples=2000,
        trump=Suit.HEARTS,
        chosen_line=chosen,
        best_line=best,
    )


def test_a_discard_is_never_said_to_keep_a_trick() -> None:
    text = sentence("discard", ours_with_best=True)
    assert text.startswith("Discarding the 10♠ gives up 0.65 points on average against the 9♣")
    assert "would have kept" not in text
    assert "a trick your side wins when you discard the 9♣ instead" in text
    other = sentence("discard", ours_with_best=False)
    assert "in this deal, when you discard the 9♣, East takes trick 2 with the A♠" in other
    assert "the 9♣ gives" not in other


def test_a_card_played_keeps_the_trick_it_would_have_won() -> None:
    text = sentence("play", ours_with_best=True)
    assert text.startswith("Playing the 10♠") and "a trick the 9♣ would have kept" in text
