"""How questions look: the earlier tricks of a hand in play, cards' spoken names, and
answer buttons that word calls as people say them, never as their labels."""

from __future__ import annotations

import pytest

from games.engine.cards import Suit
from lessons.display import card_choice, choice, facts
from tests.solver.test_review import THROWN_ACE


def test_a_best_card_question_shows_the_tricks_played_before_it() -> None:
    so_far = {**THROWN_ACE, "play": "KH JH 9H TH  AS QH KS TS  9C QC"}
    shown = facts({"kind": "best_card", "trump": "H", "seat": "N", "record": so_far})
    names = [fact.name for fact in shown]
    assert names[:3] == ["Trump", "Trick 1", "Trick 2"]
    assert "Trick 3" not in names  # under way: it is the trick in play, not an earlier one
    second = shown[2]
    assert [c.text for c in second.cards] == ["A♠", "Q♥", "K♠", "10♠"]
    assert second.text == "played in turn by East, South, West, North; South won it"


def test_a_question_without_a_record_or_with_a_bad_one_shows_no_tricks() -> None:
    assert not any(f.name.startswith("Trick ") for f in facts({"kind": "best_card"}))
    broken = {"kind": "best_card", "record": {"dealer": "Q"}}
    assert not any(f.name.startswith("Trick ") for f in facts(broken))


def test_a_bowers_spoken_name_is_the_card_and_gives_nothing_away() -> None:
    left = card_choice("JD", Suit.HEARTS)
    assert left.label == "Jack of diamonds"
    assert "bower" not in left.label and left.text == "J♦"
    assert "bower" not in choice("JH", "trumps", Suit.HEARTS).label
    fact_labels = [
        c.label for f in facts({"kind": "winner", "trump": "H", "card": "JD"}) for c in f.cards
    ]
    assert fact_labels == ["Jack of diamonds"]


@pytest.mark.parametrize(
    ("label", "text"),
    [
        ("pass", "Pass"),
        ("order_up alone", "Order up alone"),
        ("name S alone", "Name ♠ spades alone"),
        ("name NT", "Call no-trump"),
        ("defend_alone", "Defend alone"),
        ("farmer 9S 9H 9D", "Swap the 9♠, 9♥ and 9♦ for the kitty"),
    ],
)
@pytest.mark.parametrize("kind", ["call", "legal_calls"])
def test_a_call_choice_reads_as_words(kind: str, label: str, text: str) -> None:
    shown = choice(label, kind, None)
    assert (shown.value, shown.text, shown.label) == (label, text, text)


def test_other_choices_keep_their_own_words() -> None:
    assert choice("none", "legal_calls", None).text == "None of them"
    assert choice("N", "leader", None).text == "North"
