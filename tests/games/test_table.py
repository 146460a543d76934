"""games.table: the table seen from a seat, as the play and the replay pages show it."""

from __future__ import annotations

from games.engine.cards import Seat
from games.engine.game import Game
from games.engine.rules import PRESETS
from games.table import card_view, seat_views


def test_only_the_seats_face_up_show_their_cards_and_the_others_are_counted() -> None:
    state = Game(PRESETS["standard"], seed=4).new_hand()
    views = seat_views(state, Seat.E, face_up=[Seat.E], elsewhere=[Seat.S], turn=lambda s: "Go")
    assert [(v.seat, v.place) for v in views] == [
        (Seat.E, "bottom"),
        (Seat.S, "left"),
        (Seat.W, "top"),
        (Seat.N, "right"),
    ]
    east, south, west, _ = views
    assert east.cards is not None and len(east.cards) == 5
    assert west.cards is None and west.count == 5
    assert south.cards is None and south.count is None  # its hand is shown elsewhere
    assert [v.turn for v in views if v.to_act] == ["Go"]
    assert [v.seat for v in views if v.to_act] == [state.current_seat]


def test_a_marked_card_carries_its_mark_and_an_unknown_card_is_a_question_mark() -> None:
    state = Game(PRESETS["standard"], seed=4).new_hand()
    card = state.hands[Seat.S][0]
    assert card is not None
    views = seat_views(
        state,
        Seat.S,
        face_up=list(Seat),
        turn=lambda s: "",
        held_marks={(Seat.S, card): ("??", "blunder")},
    )
    south = views[0]
    assert south.cards is not None
    assert [(c.mark, c.cls) for c in south.cards if c.mark] == [("??", "blunder")]
    assert card_view(None, None).text == "?"
