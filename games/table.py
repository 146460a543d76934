"""What the play page shows of a game: the seats, the trick, the controls and the news.

Everything here is derived from the live engine state for South, the player; the
views pass it to ``templates/games/game.html``. Nothing here reveals a card South
may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.engine.actions import format_action
from games.engine.cards import (
    Card,
    Rank,
    Seat,
    Suit,
    Team,
    card_name,
    effective_suit,
    power,
    sort_cards,
)
from games.engine.hand import (
    NT,
    Action,
    Call,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    HandState,
    Phase,
    Play,
    Strain,
)

if TYPE_CHECKING:
    from games.models import GamePlay, Live

HUMAN = Seat.S
POSITIONS = {Seat.N: "north", Seat.W: "west", Seat.E: "east", Seat.S: "south"}
TEAM_NAMES = {Team.NS: "You and North", Team.EW: "West and East"}


def who(seat: Seat) -> str:
    return "You" if seat is HUMAN else seat.word


def card_text(card: Card) -> str:
    """The card as people write it: ``10♥``, ``J♠``."""
    rank = "10" if card.rank is Rank.TEN else card.rank.letter
    return rank + card.suit.symbol


def strain_text(strain: Strain) -> str:
    return "no-trump" if strain == NT else f"{strain.symbol} {strain.plural}"


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


def call_text(seat: Seat, call: Call, state: HandState) -> str:
    """A call in the auction list: ``Pass``, ``Order up``, ``Name ♠ spades alone``."""
    if call.kind == "pass":
        text = "Pass"
    elif call.kind == "order_up":
        text = "Pick it up" if seat is state.dealer else "Order up"
    elif call.kind == "defend_alone":
        text = "Defend alone"
    else:
        assert call.suit is not None
        text = "No-trump" if call.suit == NT else f"Name {strain_text(call.suit)}"
    return text + (" alone" if call.alone else "")


def control_label(action: Action, state: HandState) -> str:
    """The words on the button for one of South's choices."""
    if isinstance(action, FarmerSwap):
        return "Swap " + " ".join(card_text(c) for c in action.cards) + " for the kitty"
    if isinstance(action, FarmerRedeal):
        return "Show my farmer's hand and ask for a redeal"
    assert isinstance(action, Call)
    alone = " and go alone" if action.alone else ""
    if action.kind == "pass":
        return {Phase.FARMER: "Keep my hand", Phase.DEFEND: "Don't defend alone"}.get(
            state.phase, "Pass"
        )
    if action.kind == "defend_alone":
        return "Defend alone"
    if action.kind == "order_up":
        verb = "Pick it up" if state.dealer is HUMAN else "Order it up"
        return f"{verb} ({strain_text(state.upcard.suit)} trump){alone}"
    assert action.suit is not None
    if action.suit == NT:
        return f"Call no-trump{alone}"
    return f"Name {strain_text(action.suit)}{alone}"


def describe(seat: Seat, action: Action, state: HandState) -> str:
    """One sentence for the live region about an action just taken."""
    name = who(seat)
    you = seat is HUMAN
    if isinstance(action, Call):
        if action.kind == "pass":
            return f"{name} {'pass' if you else 'passes'}."
        if action.kind == "defend_alone":
            return f"{name} {'defend' if you else 'defends'} alone."
        alone = f", and {'go' if you else 'goes'} alone" if action.alone else ""
        if action.kind == "order_up":
            trump = state.upcard.suit.plural
            if seat is state.dealer:
                return f"{name} {'pick' if you else 'picks'} it up: {trump} are trump{alone}."
            return f"{name} {'order' if you else 'orders'} it up: {trump} are trump{alone}."
        assert action.suit is not None
        if action.suit == NT:
            return f"{name} {'call' if you else 'calls'} no-trump{alone}."
        return f"{name} {'name' if you else 'names'} {action.suit.plural}{alone}."
    if isinstance(action, Discard):
        if you and action.card is not None:
            return f"You discard the {card_name(action.card, state.trump)}."
        return f"{name} discards a card."
    if isinstance(action, Play):
        return f"{name} {'play' if you else 'plays'} the {card_name(action.card, state.trump)}."
    if isinstance(action, FarmerSwap):
        return f"{name} {'swap' if you else 'swaps'} a farmer's hand for the kitty."
    return f"{name} {'show' if you else 'shows'} a farmer's hand: the cards are dealt again."


def summary_text(state: HandState) -> str:
    result = state.result()
    if state.passed_out or result.maker is None or result.points is None:
        if isinstance(state.farmer, FarmerRedeal):
            return "A farmer's hand was shown: nobody scores and the next dealer deals."
        return "Everyone passed twice: nobody scores and the next dealer deals."
    maker = result.maker
    strain = "no-trump" if result.trump == NT else Suit(result.trump).plural
    lone = " alone" if result.alone else ""
    made = f"{who(maker)} called {strain}{lone}."
    if result.defender_alone is not None:
        made += f" {who(result.defender_alone)} defended alone."
    tricks = result.tricks[maker.team]
    scorer = max(result.points, key=lambda t: result.points[t] if result.points else 0)
    points = result.points[scorer]
    outcome = {
        "make": "made it",
        "march": "took all five tricks: a march",
        "lone_march": "took all five tricks alone",
        "euchre": "were euchred",
        "lone_maker_euchred": "were euchred",
        "lone_defender_euchre": "were euchred by a lone defender",
        "no_trump_make": "made it",
    }.get(result.row or "", "")
    side = "You and North" if maker.team is Team.NS else "West and East"
    return (
        f"{made} {side} took {tricks} trick{'s' if tricks != 1 else ''} and {outcome}. "
        f"{TEAM_NAMES[scorer]} score {points} point{'s' if points != 1 else ''}."
    )


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
        text = f"discard {card}" if state.phase is Phase.DISCARD else f"play {card}"
        hand_cards.append(card_view(card, trump, text, text in legal_texts))

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
        upcard_note = f"Picked up by {who(state.dealer)}"
    else:
        upcard_note = "Not picked up"

    news = []
    if state.history:
        seat, action = state.history[-1]
        news.append(describe(seat, action, state))
        if isinstance(action, Play) and winner is not None:
            news.append(f"{who(winner)} {'win' if winner is HUMAN else 'wins'} the trick.")
    else:
        news.append(f"Hand {game.hand_number}: {who(state.dealer)} dealt.")
    if state.is_terminal:
        news.append(summary_text(state))
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
        trick_note = f"{who(winner)} won the trick."
    tricks_played = []
    for number, trick in enumerate(state.tricks, 1):
        if len(trick.cards) == len(state.active_seats):
            tricks_played.append(
                (
                    number,
                    who(trick.leader),
                    who(state.trick_winner(trick)),
                    [card_view(c, trump) for _, c in trick.cards],
                )
            )

    focusable: list[Control | CardView] = [*controls, *hand_cards]
    return Table(
        seats=seats,
        hand=hand_cards,
        controls=controls,
        prompt=prompt,
        upcard=card_view(state.upcard, trump),
        upcard_note=upcard_note,
        auction=[(who(s), call_text(s, c, state)) for s, c in state.auction],
        trump="" if state.strain is None else strain_text(state.strain),
        maker="" if state.maker is None else who(state.maker) + (" alone" if state.alone else ""),
        tricks_won={"us": state.tricks_won[Team.NS], "them": state.tricks_won[Team.EW]},
        scores={"us": live.game.scores[Team.NS], "them": live.game.scores[Team.EW]},
        news=news,
        automatic=automatic,
        cards_are_buttons=choosing and state.phase in (Phase.DISCARD, Phase.PLAY),
        focus=next((c.action for c in focusable if getattr(c, "enabled", True)), ""),
        # A finished trick stays on the table a little longer, to be seen.
        automatic_pause_ms=1600 if winner is not None else 900,
        hand_over=state.is_terminal,
        summary=summary_text(state) if state.is_terminal else "",
        trick_note=trick_note,
        game_over=game_over,
        tricks_played=tricks_played,
    )
