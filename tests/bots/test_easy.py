"""The Easy bot's simple habits, each on a hand-built deal."""

from __future__ import annotations

from games.bots import easy
from games.engine.cards import Suit, parse_card
from games.engine.hand import Call, Discard, Play
from games.engine.rules import Rules
from tests.strategy.tables import run, table, view


def test_it_orders_up_with_three_trumps_counting_the_left_bower() -> None:
    assert easy.decide(view(table("W", "QH", N="JD 9H TH 9C 9S"))) == Call("order_up")


def test_it_passes_with_two_trumps_however_high() -> None:
    assert easy.decide(view(table("W", "QH", N="JH AH AC AS 9S"))) == Call("pass")


def test_as_dealer_it_counts_the_upcard() -> None:
    state = run(table("W", "QH", W="9H TH AC KS QD"), "pass, pass, pass")
    assert easy.decide(view(state)) == Call("order_up")


def test_it_never_goes_alone_so_under_the_canadian_loner_the_dealers_partner_passes() -> None:
    state = run(table("W", "QH", Rules(canadian_loner=True), E="JH JD AH KH 9S"), "pass")
    assert easy.decide(view(state)) == Call("pass")


def test_a_stuck_dealer_names_its_longest_suit() -> None:
    state = run(table("W", "AH", W="9H TH KH QS 9S"), *["pass"] * 7)
    assert easy.decide(view(state)) == Call("name", Suit.SPADES)


def test_it_discards_its_lowest_off_suit_card() -> None:
    state = run(table("W", "QH", N="JH JD AH 9H TH", W="9S KS AC 9C TD"), "order")
    assert easy.decide(view(state)) == Discard(parse_card("9S"))


def test_it_plays_its_highest_card_when_it_can_win_the_trick() -> None:
    state = run(table("W", "KS", N="9C JH AH 9S TS", E="QC AC 9D TD KD"), "pass, " * 4 + "name H")
    run(state, "9C")
    assert easy.decide(view(state)) == Play(parse_card("AC"))


def test_it_plays_its_lowest_card_when_it_cannot_win() -> None:
    state = run(table("W", "KS", N="AC JH AH 9S TS", E="QC TC 9D TD KD"), "pass, " * 4 + "name H")
    run(state, "AC")
    assert easy.decide(view(state)) == Play(parse_card("TC"))


def test_it_leads_its_highest_card() -> None:
    state = run(table("W", "KS", N="9C JH AH 9S TS"), "pass, " * 4 + "name H")
    assert easy.decide(view(state)) == Play(parse_card("JH"))
