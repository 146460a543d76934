"""What the play page shows of a game: the seats, the trick, the controls and the news.

Everything here is derived from the live engine state for South, the player; the
views pass it to ``templates/games/game.html``. Nothing here reveals a card South
may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.engine.actions import format_action
from games.engine.cards import Card, Seat, Suit, Team, effective_suit, power, sort_cards
from games.engine.hand import Phase, Play
from games.engine.words import (
    call_text,
    card_name,
    card_text,
    control_label,
    play_news,
    strain_text,
    summary_text,
    you_or_name,
)

if TYPE_CHECKING:
    from games.models import GamePlay, Live

HUMAN = Seat.S
POSITIONS = {Seat.N: "north", Seat.W: "west", Seat.E: "east", Seat.S: "south"}


@dataclass(frozen=True)
class CardView:
    card: Card
    text: str
    label: str
    red: bool
    action: str = ""
    enabled: bool = False


def card_view(card: Card, trump: Suit | None, action: str = "", enabled: bool = False) -> CardView:
    return CardView(
        card, card_text(card), card_name(card, trump), card.suit.is_red, action, enabled
    )


@dataclass(frozen=True)
class Control:
    action: str
    label: str


@dataclass
class SeatView:
    seat: Seat
    position: str
    name: str
    role: str
    is_dealer: bool
    to_act: bool
    sits_out: bool
    cards_left: int
    played: CardView | None = None
    won_trick: bool = False


@dataclass
class Table:
    """Everything the table partial shows."""

    seats: dict[str, SeatView]
    hand: list[CardView]
    controls: list[Control]
    prompt: str
    upcard: CardView
    upcard_note: str
    auction: list[tuple[str, str]]
    trump: str
    maker: str
    tricks_won: dict[str, int]
    scores: dict[str, int]
    news: list[str]
    automatic: bool
    cards_are_buttons: bool
    focus: str
    automatic_pause_ms: int
    hand_over: bool
    summary: str = ""
    trick_note: str = ""
    game_over: str = ""
    tricks_played: list[tuple[int, str, str, list[CardView]]] = field(default_factory=list)
    """Each finished trick: its number, who led, who won, the cards in playing order."""


def sort_hand(cards: list[Card | None], trump: Suit | None) -> list[Card]:
    """South's cards suit by suit, high to low; trump first, the left bower among them."""
    known = [c for c in sort_cards(cards) if c is not None]
    if trump is None:
        return known
    trumps = sorted(
        (c for c in known if effective_suit(c, trump) is trump),
        key=lambda c: power(c, trump, trump),
        reverse=True,
    )
    return trumps + [c for c in known if c not in trumps]


def build_table(game: GamePlay, live: Live) -> Table:
    """The table as South sees it."""
    state = live.hand
    trump = state.trump
    levels = {Seat.N: game.partner_level, Seat.W: game.opponents_level}
    levels[Seat.E] = game.opponents_level

    # The trick on show: the one being played, or the last one completed.
    shown = None
    if state.tricks:
        shown = state.tricks[-1]
        if not shown.cards and len(state.tricks) > 1:
            shown = state.tricks[-2]
    shown_complete = shown is not None and len(shown.cards) == len(state.active_seats)
    winner = state.trick_winner(shown) if shown is not None and shown_complete else None
    played = dict(shown.cards) if shown is not None else {}

    seats: dict[str, SeatView] = {}
    for seat, position in POSITIONS.items():
        if seat is HUMAN:
            name, role = "South", "You"
        elif seat is HUMAN.partner:
            name, role = "North", f"Your partner ({levels[seat]})"
        else:
            name, role = seat.word, f"Opponent ({levels[seat]})"
        seats[position] = SeatView(
            seat=seat,
            position=position,
            name=name,
            role=role,
            is_dealer=seat is state.dealer,
            to_act=seat is state.current_seat,
            sits_out=state.sits_out(seat)
            and state.phase in (Phase.DISCARD, Phase.PLAY, Phase.DONE),
            cards_left=len(state.hands[seat]),
            played=card_view(played[seat], trump) if seat in played else None,
            won_trick=seat is winner,
        )

    legal = state.legal_actions() if state.current_seat is HUMAN else []
    legal_texts = {format_action(a) for a in legal}
    hand_cards: list[CardView] = []
    for card in sort_hand(state.hands[HUMAN], trump):
        action = f"discard {card}" if state.phase is Phase.DISCARD else f"play {card}"
        hand_cards.append(card_view(card, trump, action, action in legal_texts))

    automatic = game.automatic_action(live) is not None
    controls: list[Control] = []
    prompt = ""
    choosing = state.current_seat is HUMAN and not automatic
    if choosing:
        if state.phase in (Phase.AUCTION, Phase.FARMER, Phase.DEFEND):
            controls = [Control(format_action(a), control_label(a, state)) for a in legal]
        prompt = {
            Phase.FARMER: "You hold a farmer's hand. Swap it, or keep your cards.",
            Phase.AUCTION: "Your call.",
            Phase.DEFEND: "Will you defend alone?",
            Phase.DISCARD: "You picked up the upcard: choose a card to discard.",
            Phase.PLAY: "Your turn: play a card.",
        }.get(state.phase, "")
        if state.phase is Phase.AUCTION and state.stuck:
            prompt = "Everyone passed: as the dealer you are stuck and must name a suit."

    if state.strain is None and state.round == 1 and not state.is_terminal:
        upcard_note = "Upcard"
    elif state.strain is None:
        upcard_note = "Turned down"
    elif state.picked_up:
        upcard_note = f"Picked up by {you_or_name(state.dealer, HUMAN)}"
    else:
        upcard_note = "Not picked up"

    news = []
    if state.history:
        seat, action = state.history[-1]
        news.append(play_news(seat, action, state, HUMAN))
        if isinstance(action, Play) and winner is not None:
            news.append(
                f"{you_or_name(winner, HUMAN)} {'win' if winner is HUMAN else 'wins'} the trick."
            )
    else:
        news.append(f"Hand {game.hand_number}: {you_or_name(state.dealer, HUMAN)} dealt.")
    if state.is_terminal:
        news.append(summary_text(state, HUMAN))
    elif state.current_seat is HUMAN and not automatic:
        news.append(prompt)
    elif state.current_seat is HUMAN:
        only = legal[0]
        assert isinstance(only, Play)
        news.append(f"Your only legal card, the {card_name(only.card, trump)}, is played for you.")

    game_over = ""
    if live.game.is_over:
        won = live.game.winner is Team.NS
        game_over = "You and North win the game!" if won else "West and East win the game."

    trick_note = ""
    if winner is not None:
        trick_note = f"{you_or_name(winner, HUMAN)} won the trick."
    tricks_played = []
    for number, trick in enumerate(state.tricks, 1):
        if len(trick.cards) == len(state.active_seats):
            tricks_played.append(
                (
                    number,
                    you_or_name(trick.leader, HUMAN),
                    you_or_name(state.trick_winner(trick), HUMAN),
                    [card_view(c, trump) for _, c in trick.cards],
                )
            )

    return Table(
        seats=seats,
        hand=hand_cards,
        controls=controls,
        prompt=prompt,
        upcard=card_view(state.upcard, trump),
        upcard_note=upcard_note,
        auction=[(you_or_name(s, HUMAN), call_text(s, c, state)) for s, c in state.auction],
        trump="" if state.strain is None else strain_text(state.strain),
        maker=""
        if state.maker is None
        else you_or_name(state.maker, HUMAN) + (" alone" if state.alone else ""),
        tricks_won={"us": state.tricks_won[Team.NS], "them": state.tricks_won[Team.EW]},
        scores={"us": live.game.scores[Team.NS], "them": live.game.scores[Team.EW]},
        news=news,
        automatic=automatic,
        cards_are_buttons=choosing and state.phase in (Phase.DISCARD, Phase.PLAY),
        focus=next((c.action for c in [*controls, *hand_cards] if getattr(c, "enabled", True)), ""),
        # A finished trick stays on the table a little longer, to be seen.
        automatic_pause_ms=1600 if winner is not None else 900,
        hand_over=state.is_terminal,
        summary=summary_text(state, HUMAN) if state.is_terminal else "",
        trick_note=trick_note,
        game_over=game_over,
        tricks_played=tricks_played,
    )
