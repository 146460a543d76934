"""The words of the game: each name of a card, call, seat, team and result, as people read it."""

from __future__ import annotations

import pytest

from games.engine.cards import ALL_CARDS, Card, Seat, Suit, Team, parse_card
from games.engine.hand import NT, Call, Discard, FarmerRedeal, FarmerSwap, HandState, Phase, Play
from games.engine.record import parse_record
from games.engine.rules import PRESETS
from games.engine.words import (
    action_label,
    action_words,
    and_list,
    are_trump,
    auction_story,
    call_imperative,
    call_label,
    call_option,
    call_phrase,
    call_text,
    call_words,
    card_name,
    card_text,
    control_label,
    describe,
    describe_hand,
    label_text,
    maker_words,
    play_news,
    result_text,
    scores_text,
    short_name,
    side_words,
    strain_text,
    summary_text,
    team_word,
    the,
    the_bower_or_card,
    the_cards,
    the_with_role,
    trick_text,
    what_it_is,
    who,
)

from . import deals

C = parse_card


def cards(text: str) -> list[Card]:
    return [C(word) for word in text.split()]


def state_of(record: dict[str, object]) -> HandState:
    return parse_record(record).state


# -- cards --------------------------------------------------------------------------------


def test_a_ten_is_written_with_two_digits_and_the_rest_with_a_letter() -> None:
    assert [card_text(c) for c in ALL_CARDS[:6]] == ["9♠", "10♠", "J♠", "Q♠", "K♠", "A♠"]


def test_only_the_two_bowers_say_which_they_are_in_short() -> None:
    named = {
        str(c): short_name(c, Suit.DIAMONDS)
        for c in ALL_CARDS
        if "(" in short_name(c, Suit.DIAMONDS)
    }
    assert named == {"JH": "J♥ (the left bower)", "JD": "J♦ (the right bower)"}


def test_no_trump_has_no_bowers() -> None:
    assert short_name(C("JH"), None) == "J♥"
    assert card_name(C("JH"), None) == "Jack of hearts"
    assert the_bower_or_card(C("JH"), None) == "the jack of hearts"
    assert what_it_is(C("JH"), None) == "the jack of hearts"


def test_card_names_spell_out_rank_and_suit() -> None:
    assert card_name(C("TD")) == "Ten of diamonds"
    assert card_name(C("9S")) == "Nine of spades"
    assert card_name(C("AC"), Suit.HEARTS) == "Ace of clubs"


def test_card_names_say_which_jack_is_a_bower() -> None:
    assert card_name(C("JH"), Suit.HEARTS) == "Jack of hearts, right bower"
    assert card_name(C("JD"), Suit.HEARTS) == "Jack of diamonds, left bower"
    assert card_name(C("JS"), Suit.HEARTS) == "Jack of spades"
    assert card_name(C("JD")) == "Jack of diamonds"  # no trump, no bowers


def test_a_long_name_names_the_bower_after_the_card() -> None:
    assert card_name(C("JS"), Suit.SPADES) == "Jack of spades, right bower"
    assert card_name(C("JC"), Suit.SPADES) == "Jack of clubs, left bower"
    assert card_name(C("TC"), Suit.SPADES) == "Ten of clubs"


def test_the_names_a_card_in_lower_case_inside_a_sentence() -> None:
    assert the(C("AH")) == "the ace of hearts"
    assert the(C("JC"), Suit.SPADES) == "the jack of clubs, left bower"


def test_the_card_forms_agree_on_every_card_under_every_trump() -> None:
    for trump in (*Suit, None):
        for card in ALL_CARDS:
            long = card_name(card, trump)
            assert the(card, trump) == "the " + long[0].lower() + long[1:]
            assert the_with_role(card, trump).startswith(the(card))
            assert what_it_is(card, trump).startswith(the(card))
            assert short_name(card, trump).startswith(card_text(card))


def test_the_role_forms_of_the_left_bower() -> None:
    assert the_with_role(C("JC"), Suit.SPADES) == "the jack of clubs (the left bower)"
    assert what_it_is(C("JC"), Suit.SPADES) == "the jack of clubs (the left bower, a spade)"
    assert the_bower_or_card(C("JC"), Suit.SPADES) == "the left bower"
    assert the_bower_or_card(C("JS"), Suit.SPADES) == "the right bower"


def test_a_trick_is_told_seat_by_seat() -> None:
    trick = [(Seat.W, C("9D")), (Seat.N, C("JH"))]
    assert trick_text(trick) == "West the nine of diamonds, North the jack of hearts"


@pytest.mark.parametrize(
    ("hand", "trump", "text"),
    [
        ("9C TC QC KC AC", Suit.HEARTS, "No trumps and the ace of clubs"),
        ("JH 9S TC QC KD", Suit.HEARTS, "One trump with the right bower"),
        (
            "JH JD AH AS AC",
            Suit.HEARTS,
            "Three trumps with both bowers and the trump ace, and the aces of spades and clubs",
        ),
        (
            "JD 9H AS AC AD",
            Suit.HEARTS,
            "Two trumps with the left bower and the aces of spades, diamonds and clubs",
        ),
    ],
)
def test_a_hand_is_described_by_its_trumps_bowers_and_aces(
    hand: str, trump: Suit, text: str
) -> None:
    assert describe_hand(cards(hand), trump) == text


# -- joining and strains ------------------------------------------------------------------


def test_lists_join_with_commas_and_a_final_and() -> None:
    assert and_list(["a", "b"]) == "a and b"
    assert and_list(["a", "b", "c", "d"]) == "a, b, c and d"


def test_strains_with_and_without_symbols() -> None:
    assert strain_text(Suit.CLUBS) == "♣ clubs"
    assert strain_text(NT) == "no-trump"
    assert are_trump(Suit.CLUBS) == "Clubs are trump"


# -- seats and teams ----------------------------------------------------------------------


def test_who_is_said_from_the_viewers_seat() -> None:
    assert [who(s, Seat.E) for s in Seat] == ["North", "you", "South", "your partner (West)"]


def test_the_teams_are_spelled_with_a_hyphen() -> None:
    assert (team_word(Team.NS), team_word(Team.EW)) == ("North-South", "East-West")


def test_a_side_is_named_from_the_players_seat() -> None:
    assert side_words(Team.EW, Seat.E) == "You and West"
    assert side_words(Team.NS, Seat.E) == "South and North"


# -- calls --------------------------------------------------------------------------------

ALL_CALLS = [
    Call("pass"),
    Call("order_up"),
    Call("order_up", alone=True),
    Call("defend_alone"),
    *(Call("name", s, alone) for s in (*Suit, NT) for alone in (False, True)),
]


def test_every_call_has_its_label_and_the_words_for_it() -> None:
    table = {
        call_label(c): (call_words(call_label(c)), call_imperative(call_label(c)))
        for c in ALL_CALLS
    }
    assert table["pass"] == ("passing", "pass")
    assert table["order_up alone"] == ("ordering up alone", "order up alone")
    assert table["defend_alone"] == ("defending alone", "defend alone")
    assert table["name D"] == ("naming diamonds", "name diamonds")
    assert table["name NT alone"] == ("naming no-trump alone", "name no-trump alone")
    assert len(table) == len(ALL_CALLS)


def test_the_farmers_hand_has_labels_and_words() -> None:
    swap = FarmerSwap((C("9S"), C("9H"), C("9D")))
    assert call_label(swap) == "farmer 9S 9H 9D"
    assert call_words(call_label(swap)) == "swapping the 9♠, 9♥ and 9♦ for the kitty"
    assert call_imperative(call_label(swap)) == "swap the 9♠, 9♥ and 9♦ for the kitty"
    assert call_option(call_label(swap)) == "Swap the 9♠, 9♥ and 9♦ for the kitty"
    assert call_option(call_label(FarmerRedeal())) == "Ask for a redeal"
    assert call_words(call_label(FarmerRedeal())) == "asking for a redeal"


def test_an_answers_button_words_every_call_without_its_code() -> None:
    options = {call_label(c): call_option(call_label(c)) for c in ALL_CALLS}
    assert options["pass"] == "Pass"
    assert options["order_up alone"] == "Order up alone"
    assert options["name S alone"] == "Name ♠ spades alone"
    assert options["name NT"] == "Call no-trump"
    assert options["defend_alone"] == "Defend alone"
    for text in options.values():
        assert "_" not in text and not any(f" {s} " in f"{text} " for s in "SHDC")


def test_a_label_as_text_keeps_its_letters_unless_asked() -> None:
    assert label_text("order_up alone") == "order up alone"
    assert label_text("name H") == "name H"
    assert label_text("name NT alone", spell_no_trump=True) == "name no-trump alone"


def test_the_auction_is_told_in_the_past() -> None:
    assert call_phrase(Call("name", NT, alone=True)) == "named no-trump alone"
    auction = [(s, Call("pass")) for s in (Seat.N, Seat.E, Seat.S, Seat.W)]
    auction += [(Seat.N, Call("name", Suit.CLUBS))]
    assert auction_story(auction) == (
        "Everyone passed in the first round and the upcard was turned down. Then North named clubs."
    )
    assert auction_story([]) == "Nobody has bid yet."


# -- an action in a state -----------------------------------------------------------------


def fresh(dealer: Seat = Seat.W) -> HandState:
    hands: dict[Seat, list[Card | None]] = {
        Seat(s): [C(c) for c in cs] for s, cs in deals.ONE_SUIT_EACH.items()
    }
    return HandState(PRESETS["standard"], dealer, hands, C("JS"), [C("JC"), C("TH"), C("9H")])


def test_the_auction_list_names_the_dealers_pick_up() -> None:
    state = fresh(Seat.W)
    assert call_text(Seat.N, Call("order_up"), state) == "Order up"
    assert call_text(Seat.W, Call("order_up", alone=True), state) == "Pick it up alone"
    assert call_text(Seat.N, Call("name", Suit.HEARTS), state) == "Name ♥ hearts"
    assert call_text(Seat.N, Call("name", NT, alone=True), state) == "No-trump alone"


def test_the_buttons_and_the_options_word_the_choices_of_the_seat_to_act() -> None:
    state = fresh(Seat.W)
    assert state.current_seat is Seat.N and state.phase is Phase.AUCTION
    labels = [control_label(a, state) for a in state.legal_actions()]
    assert labels == [
        "Pass",
        "Order it up (♠ spades trump)",
        "Order it up (♠ spades trump) and go alone",
    ]
    options = [action_label(a, state) for a in state.legal_actions()]
    assert options == ["Pass", "Order it up (♠ spades)", "Order it up (♠ spades) alone"]


def test_the_dealer_is_offered_to_pick_it_up() -> None:
    state = fresh(Seat.N)
    for _ in range(3):
        state.apply(Call("pass"))
    assert state.current_seat is Seat.N
    assert control_label(Call("order_up"), state) == "Pick it up (♠ spades trump)"
    assert action_label(Call("order_up"), state) == "Pick it up (♠ spades)"


def test_the_news_speaks_to_the_player_and_of_the_others() -> None:
    state = fresh(Seat.W)
    assert play_news(Seat.N, Call("pass"), state) == "North passes."
    assert play_news(Seat.S, Call("pass"), state) == "You pass."
    assert play_news(Seat.S, Call("order_up", alone=True), state) == (
        "You order it up: spades are trump, and go alone."
    )
    assert play_news(Seat.S, Play(C("AC")), state) == "You play the ace of clubs."
    assert play_news(Seat.N, Play(C("JD")), state) == "North plays the jack of diamonds."
    assert play_news(Seat.E, Discard(None), state) == "East discards a card."


def test_a_replay_describes_each_seat_by_name() -> None:
    state = fresh(Seat.W)
    assert describe(Seat.S, Call("order_up", alone=True), state, discard_visible=True) == (
        "South orders it up: spades are trump, alone."
    )
    assert (
        describe(Seat.W, Discard(C("JC")), state, discard_visible=False) == "West discards a card."
    )
    assert (
        describe(Seat.N, Call("name", NT), state, discard_visible=True) == "North calls no-trump."
    )


# -- results ------------------------------------------------------------------------------


def test_a_march_is_summed_up_for_the_player_and_for_the_replay() -> None:
    state = state_of(deals.hearts_march())
    assert summary_text(state) == (
        "North called hearts. You and North took all five tricks: a march. "
        "You and North score 2 points."
    )
    assert (
        result_text(state)
        == "North called hearts; North-South took 5 tricks. North-South score 2 points."
    )


def test_a_lone_march_names_the_lone_maker_not_the_partner_who_sat_out() -> None:
    state = state_of(deals.hearts_march(alone=True))
    assert summary_text(state) == (
        "North called hearts alone. North took all five tricks alone: a lone march. "
        "You and North score 4 points."
    )
    assert summary_text(state, Seat.N) == (
        "You called hearts alone. You took all five tricks alone: a lone march. "
        "You and South score 4 points."
    )
    assert result_text(state).startswith("North called hearts alone; North took 5 tricks.")


def test_a_lone_maker_who_takes_four_is_named_alone() -> None:
    state = state_of(deals.spades_four(alone=True))
    assert summary_text(state) == (
        "East called spades alone. East took 4 tricks and made it. West and East score 1 point."
    )
    assert summary_text(state, Seat.E) == (
        "You called spades alone. You took 4 tricks and made it. You and West score 1 point."
    )


def test_a_make_says_the_tricks_once() -> None:
    state = state_of(deals.spades_four())
    assert summary_text(state) == (
        "East called spades. West and East took 4 tricks and made it. West and East score 1 point."
    )


def test_a_euchre_is_scored_to_the_defenders() -> None:
    state = state_of(deals.diamonds("N"))
    assert summary_text(state) == (
        "North called diamonds. You and North took only 2 tricks and were euchred. "
        "West and East score 2 points."
    )
    assert result_text(state).endswith("East-West score 2 points.")


def test_a_lone_maker_euchred_was_euchred_alone() -> None:
    state = state_of(deals.diamonds("N", alone=True))
    assert summary_text(state) == (
        "North called diamonds alone. North took only 2 tricks and was euchred. "
        "West and East score 2 points."
    )
    assert summary_text(state, Seat.N).startswith(
        "You called diamonds alone. You took only 2 tricks and were euchred."
    )


def test_makers_who_take_nothing_took_no_tricks() -> None:
    state = state_of(deals.hearts_for_the_defenders())
    assert summary_text(state) == (
        "East called hearts. West and East took no tricks and were euchred. "
        "You and North score 2 points."
    )


def test_a_lone_defenders_euchre_says_who_defended_alone() -> None:
    state = state_of(deals.diamonds_defended_alone("defend-alone"))
    assert summary_text(state) == (
        "North called diamonds. West defended alone. You and North took only 2 tricks and "
        "were euchred by a lone defender. West and East score 4 points."
    )


def test_the_table_says_who_called_it_in_a_sentence() -> None:
    assert maker_words(Seat.S, True) == "You called it alone"
    assert maker_words(Seat.E, False) == "East called it"
    assert maker_words(Seat.S, False, you=Seat.N) == "South called it"


def test_a_hand_passed_out_scores_nothing() -> None:
    state = state_of(
        deals.record(dealer="W", auction=deals.passes("W", 8), play=[], rules="redeal")
    )
    assert summary_text(state) == "Everyone passed twice: nobody scores and the next dealer deals."
    assert result_text(state) == "Everyone passed twice: nobody scores."


def test_a_computer_players_reason_names_cards_short_and_calls_in_words() -> None:
    assert action_words(Discard(C("9C"))) == "discarding the 9♣"
    assert action_words(Call("name", NT)) == "naming no-trump"
    assert action_words(Call("name", Suit.HEARTS)) == "naming hearts"
    assert action_words(Call("order_up", alone=True)) == "ordering up alone"
    assert action_words(FarmerRedeal()) == "asking for a redeal"
    swap = FarmerSwap((C("9C"), C("9H"), C("9S")))
    assert action_words(swap) == "swapping the 9♠, 9♥ and 9♣ for the kitty"


def test_cards_by_name_are_listed_as_a_sentence() -> None:
    assert the_cards([C("9C"), C("TC"), C("AH")]) == (
        "the nine of clubs, the ten of clubs and the ace of hearts"
    )


def test_a_game_score_names_both_teams() -> None:
    assert scores_text(10, 8) == "North-South 10, East-West 8"
