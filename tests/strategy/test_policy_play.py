"""Each card-play rule of the standard policy, on a hand-built deal whose answer is plain.

Most deals turn the upcard (the KS) down and let N name hearts, so nobody picks up:
N leads the first trick, and play goes N, E, S, W.
"""

from __future__ import annotations

from games.engine.cards import Suit, parse_card
from games.engine.hand import HandState, Play
from games.strategy.policy import decide

from .tables import normal, run, table, view

ROUND_TWO_HEARTS = "pass, pass, pass, pass, name H"


def hearts_named_by_north(**hands: str) -> HandState:
    return run(table("W", "KS", **hands), ROUND_TWO_HEARTS)


def play(card: str) -> Play:
    return Play(parse_card(card))


# -- leading ---------------------------------------------------------------------------------


def test_the_maker_leads_the_right_bower() -> None:
    state = run(table("W", "QH", N="JH TH 9H AC KS", W="9S TS QS KD 9C"), "order", "discard 9C")
    assert normal(state) == (
        play("JH"),
        "Lead the right bower, the highest trump left: the makers draw the opponents' trumps.",
    )


def test_the_maker_without_the_highest_trump_leads_a_low_one() -> None:
    state = run(table("W", "QH", N="JD AH 9H AC KS", W="9S TS QS KD 9C"), "order", "discard 9C")
    action, reason = normal(state)
    assert action == play("9H")
    assert reason.startswith("As the maker, lead trump")


def test_the_maker_counts_the_right_bower_played_and_leads_the_left() -> None:
    state = run(
        table(
            "W",
            "QH",
            N="JD AH 9H AC KS",
            E="JH 9C 9D TD QD",
            S="TH TC 9S TS QS",
            W="KH QC JS AS KD",
        ),
        "order",
        "discard KD",
        "9H, JH, TH, KH",  # E wins with the right bower
        "9C, TC, QC, AC",  # N wins with the ace of clubs
    )
    assert state.current_seat is not None and state.current_seat.value == "N"
    assert normal(state)[0] == play("JD")


def test_once_every_trump_is_accounted_for_the_opponents_cannot_trump() -> None:
    state = run(
        table(
            "W",
            "QH",
            N="JD AH 9H AC KS",
            E="JH 9C 9D TD QD",
            S="TH TC 9S TS QS",
            W="KH QC JS AS KD",
        ),
        "order",
        "discard KD",
        "9H, JH, TH, KH",
        "9C, TC, QC, AC",
        "JD, 9D, 9S, QH",  # seven trumps: six played, N holds the ace
    )
    seen = view(state)
    assert seen.top_unseen(Suit.HEARTS) == 0
    assert decide(seen) == play("KS")  # the ace of trumps wins later, whatever happens


def test_a_defender_leads_its_off_suit_ace_not_trump() -> None:
    # N deals; S names hearts; E, a defender, leads first.
    state = run(table("N", "KS", E="AD 9C TC QH 9H"), "pass, pass, pass, pass, pass, name H")
    assert normal(state) == (
        play("AD"),
        "Lead the ace of diamonds: a defender cashes an off-suit winner.",
    )


# -- following -------------------------------------------------------------------------------


def test_with_partner_winning_the_trick_play_low() -> None:
    state = hearts_named_by_north(N="AS 9D TD QC KC", E="9S JS 9C TC AD", S="QS TS 9H TH JD")
    run(state, "AS, 9S")
    assert normal(state) == (
        play("TS"),
        "Partner is winning the trick: play low, the ten of spades.",
    )


def test_do_not_trump_partners_winning_ace() -> None:
    state = hearts_named_by_north(N="AS 9D TD QC KC", E="9S JS TS QS AD", S="9H TH 9C KD QD")
    run(state, "AS, 9S")
    assert normal(state)[0] == play("9C")


def test_take_partners_trick_when_it_could_be_beaten_and_a_sure_winner_is_at_hand() -> None:
    # N leads the queen of trumps; W, still to play, may hold a higher one: S takes the
    # trick with the right bower rather than throw the ten.
    state = hearts_named_by_north(N="QH 9D TD QC KC", E="9H 9S TS QS AS", S="JH TH 9C AD KD")
    run(state, "QH, 9H")
    assert normal(state) == (
        play("JH"),
        "Partner's queen of hearts could still be beaten: take the trick with the right "
        "bower, which cannot be.",
    )


def test_win_as_cheaply_as_possible() -> None:
    state = hearts_named_by_north(
        N="9C JH AH 9S TS", E="TC 9D TD QD KD", S="QC 9H TH QS AS", W="KC AC JD AD JS"
    )
    run(state, "9C, TC, QC")
    assert normal(state) == (
        play("KC"),
        "Win the trick as cheaply as possible: the king of clubs.",
    )


def test_void_in_the_led_suit_trump_in_with_the_lowest_trump() -> None:
    state = hearts_named_by_north(
        N="9C JH AH 9S TS", E="TC AD KD JS QS", S="QC TH QH AS JC", W="9H KH 9D TD QD"
    )
    run(state, "9C, TC, QC")
    assert normal(state) == (play("9H"), "Void in clubs: trump in with the nine of hearts.")


def test_a_low_lead_is_left_to_partner_still_to_play() -> None:
    state = hearts_named_by_north(N="9C JH AH 9S TS", E="9H KH 9D TD QD")
    run(state, "9C")
    action, reason = normal(state)
    assert action == play("9D")
    assert reason.startswith("Partner, still to play, may win this with clubs")


def test_a_card_that_cannot_win_is_the_lowest_of_the_shortest_suit() -> None:
    state = hearts_named_by_north(
        N="9C JH AH QH TH", E="TC AD JC JS QS", S="QC KC AC KH 9H", W="9S TS AS KD 9D"
    )
    run(state, "9C, TC, AC")
    # The AS is the best spade left (the KS was turned down): kept.
    assert normal(state) == (
        play("9D"),
        "You cannot win this trick: play your cheapest card, the nine of diamonds.",
    )


def test_following_suit_without_a_winner_plays_the_lowest_card_of_the_suit() -> None:
    state = hearts_named_by_north(N="AC JH AH QH TH", E="9C TC KC JS QS")
    run(state, "AC")
    assert normal(state)[0] == play("9C")


def test_second_hand_without_a_sure_winner_plays_low() -> None:
    # The KC would beat the TC, but the AC is still out and partner W plays last.
    state = hearts_named_by_north(N="TC JH AH QH TH", E="KC 9C 9S TS 9D")
    run(state, "TC")
    assert normal(state) == (
        play("9C"),
        "No card sure to win, and partner plays after you: play low, the nine of clubs.",
    )
