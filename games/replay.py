"""What the replay page shows of a hand at one step: the table, the decision, the side line.

A hand's steps are its actions in order (every call, the discard, every card): step 0
is the deal, step N the position after N actions, with the decision taken there being
action N. The review (``analysis.solver.review.review_hand``) has one entry per action,
in the same order, so decision N is ``review.decisions[N]``.

A what-if side line branches off the main line at a step and lists its own actions in
the URL (``line=9S.KC``, see :func:`action_token`); the engine checks each of them.

Everything here is plain functions and dataclasses over the record and the review, so
it is tested without a browser; ``games.views.replay`` only reads the request and
renders.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from analysis.solver.good_plays import good_marks, margin_of
from analysis.solver.hindsight import (
    DoubleDummy,
    Solvers,
    Unknown,
    discard_options,
    position_of,
)
from analysis.solver.judgement import GOOD_MARKS, MARKS, Mark
from analysis.solver.review import DecisionReview, Review, standard_policy
from games.engine.actions import format_action, parse_action
from games.engine.cards import ALL_CARDS, Card, Seat, Suit, Team, parse_seat
from games.engine.egn import EgnAnnotation, follow_line
from games.engine.errors import ActionError, EgnError, IllegalActionError
from games.engine.hand import (
    NT,
    Action,
    Discard,
    HandState,
    Phase,
    Play,
)
from games.engine.record import HandRecord, parse_record
from games.engine.scoring import score_hand
from games.engine.words import (
    action_label,
    call_label,
    card_text,
    choice_verb,
    describe,
    phase_verb,
    result_text,
    strain_text,
    the,
)

from .charts import Point, Series, line_chart
from .table import CardView, SeatView, card_view, seat_views, shown_trick, upcard_note

VIEWS = ("all", "seat")
"""``all``: every card visible; ``seat``: only what the point-of-view seat saw."""

MAX_LINE = 40
"""A side line never needs more actions than a whole hand has; longer ones are cut."""

MAX_SIDE_NODES = 2000
"""What-if positions a replay keeps (it is kept between requests, see
``games.replay_cache``); past this it forgets them all and grows them again as asked."""

# -- parameters --------------------------------------------------------------------------


@dataclass(frozen=True)
class Params:
    """Where the page stands: the query string, checked."""

    step: int = 0
    seat: Seat = Seat.S
    view: str = "all"
    line: tuple[str, ...] = ()
    share: str | None = None
    auto: str = ""
    """``1``: the solver plays the side line's next action; ``all``: it plays to the end."""
    review: int | None = None
    """The analysis job whose review to show, when the viewer chose one other than the
    hand's own; checked by the view, which knows the hand's reviews."""


def parse_params(
    query: Mapping[str, str], default_seat: Seat, share: str | None = None
) -> tuple[Params, list[str]]:
    """The page's parameters from ``query``; nonsense is replaced by defaults, with a
    message for each thing that had to be changed (never an error)."""
    notes: list[str] = []
    raw_step = query.get("step", "0") or "0"
    try:
        step = int(raw_step)
    except ValueError:
        step = 0
        notes.append(f"“{raw_step[:20]}” is not a step number: showing the deal.")
    seat = default_seat
    raw_seat = query.get("seat", "")
    if raw_seat:
        try:
            seat = Seat(raw_seat.upper())
        except ValueError:
            notes.append(f"“{raw_seat[:10]}” is not a seat (N, E, S or W).")
    view = query.get("view", "all")
    if view not in VIEWS:
        view = "all"
    raw_line = query.get("line", "")
    line = tuple(t for t in raw_line.split(".") if t)[:MAX_LINE]
    auto = query.get("auto", "")
    if auto not in ("1", "all"):
        auto = ""
    return Params(step, seat, view, line, share, auto), notes


def page_url(base: str, params: Params, default_seat: Seat, **changes: Any) -> str:
    """The URL of the page with ``changes`` applied to ``params``; defaults are left out,
    the share token is always kept."""
    p = Params(**{**params.__dict__, "auto": "", **changes})
    query: dict[str, str] = {"step": str(p.step)}
    if p.seat is not default_seat:
        query["seat"] = p.seat.value
    if p.view != "all":
        query["view"] = p.view
    if p.line:
        query["line"] = ".".join(p.line)
    if p.auto:
        query["auto"] = p.auto
    if p.review is not None:
        query["review"] = str(p.review)
    if p.share:
        query["share"] = p.share
    return f"{base}?{urlencode(query)}"


# -- actions as URL tokens -----------------------------------------------------------------

_CARD = re.compile(r"^[9TJQKA][SHDC]$")


def action_token(action: Action) -> str:
    """An action as one word for a URL: ``9S`` (a card played), ``x9S`` (discarded),
    ``pass``, ``order_up``, ``order_up-alone``, ``name-H``, ``defend_alone``…

    >>> from games.engine.cards import parse_card
    >>> from games.engine.hand import Call
    >>> action_token(Play(parse_card("9S"))), action_token(Call("name", Suit.HEARTS, True))
    ('9S', 'name-H-alone')
    """
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Discard):
        # A line of the file may throw away the card the record leaves unknown.
        return "x?" if action.card is None else "x" + str(action.card)
    return format_action(action).replace(" ", "-")


def parse_token(token: str) -> Action:
    """The action :func:`action_token` wrote; raises ``ActionError``."""
    upper = token.upper()
    if _CARD.match(upper):
        return Play(ALL_CARDS_BY_TEXT[upper])
    if len(upper) == 3 and upper[0] == "X" and _CARD.match(upper[1:]):
        return Discard(ALL_CARDS_BY_TEXT[upper[1:]])
    if upper == "X?":
        return Discard(None)
    return parse_action(token.replace("-", " "))


ALL_CARDS_BY_TEXT = {str(c): c for c in ALL_CARDS}


# -- words ------------------------------------------------------------------------------


def option_key(action: Action) -> str:
    """How the review names an option: a card's text, or the call's label."""
    if isinstance(action, Play | Discard):
        return "" if action.card is None else str(action.card)
    return call_label(action)


# -- what the file said -------------------------------------------------------------------

NOTE_MARKS = {
    "[??]": "blunder",
    "[?]": "mistake",
    "[?!]": "inaccuracy",
    "[!?]": "interesting",
    "[!]": "good",
    "[!!]": "brilliant",
}
"""EGN's annotation labels (``docs/annotations.md``) and the class each is shown with."""


@dataclass(frozen=True)
class NoteView:
    """An annotation of the file the hand came from, as the page shows it."""

    mark: str
    """The label's glyph (``??``, ``!``…), or ``""``."""
    cls: str
    """The label's name (``blunder``, ``good``…), or ``""``."""
    text: str
    outside: bool = False
    """About a call or card the record does not hold (the file's index is past its end)."""


def note_view(label: str | None, text: str, *, outside: bool = False) -> NoteView:
    if label in NOTE_MARKS:
        return NoteView(label[1:-1], NOTE_MARKS[label], text, outside)
    return NoteView("", "", text, outside)


def steps_of_notes(record: HandRecord, notes: Sequence[EgnAnnotation]) -> dict[int, list[NoteView]]:
    """The file's annotations by the step of the decision they are about: a call's note
    on the step of that call, a card's on the step it is played. A note past the record's
    last call or card goes on its last step, saying so."""
    phases = record.state.history_phases
    calls = [i for i, phase in enumerate(phases) if phase is Phase.AUCTION]
    plays = [i for i, phase in enumerate(phases) if phase is Phase.PLAY]
    out: dict[int, list[NoteView]] = {}
    last = max(len(phases) - 1, 0)
    for note in notes:
        steps = calls if note.kind == "call" else plays
        inside = 0 <= note.index < len(steps)
        step = steps[note.index] if inside else last
        out.setdefault(step, []).append(note_view(note.label, note.text, outside=not inside))
    return out


@dataclass(frozen=True)
class FileLine:
    """An alternative line of the file, as what-if tokens from the step it leaves the
    record at, with its annotations by position in the tokens."""

    step: int
    tokens: tuple[str, ...]
    notes: dict[int, list[NoteView]]
    problem: str = ""


def file_lines_of(record: HandRecord, lines: Sequence[dict[str, Any]]) -> list[FileLine]:
    """The file's alternative lines that branch off this record (the others are left)."""
    out = []
    for line in lines:
        try:
            followed = follow_line(record, line)
        except EgnError:
            continue
        if not followed.actions:
            continue
        notes: dict[int, list[NoteView]] = {}
        for at, label, text in followed.notes:
            notes.setdefault(at, []).append(note_view(label, text))
        tokens = tuple(action_token(a) for a in followed.actions)
        out.append(FileLine(followed.step, tokens, notes, followed.problem))
    return out


# -- the table ----------------------------------------------------------------------------


@dataclass
class TrickView:
    number: int
    leader: str
    winner: str
    cards: list[tuple[str, CardView]]


@dataclass
class MoveView:
    """One action in the move list."""

    step: int
    seat: str
    text: str
    label: str
    mark: str
    cls: str
    url: str
    current: bool
    comments: int = 0
    """How many comments the decision has (counted only for those who may see them)."""
    notes: int = 0
    """How many annotations the file has on the decision."""


@dataclass
class OptionRow:
    label: str
    key: str
    ev: float | None
    se: float | None
    dd: int | None
    chosen: bool
    best: bool
    url: str


@dataclass
class DecisionPanel:
    seat: Seat
    kind: str
    """``call``, ``discard`` or ``play``."""
    chosen: str
    mark: str = ""
    cls: str = ""
    explanation: str = ""
    best: str = ""
    loss: float | None = None
    samples: int | None = None
    options: list[OptionRow] = field(default_factory=list)
    note: str = ""
    hidden: bool = False
    """Another seat's decision while the page shows only what the viewer saw."""
    file_notes: list[NoteView] = field(default_factory=list)
    """The file's annotations of this decision, beside the review's mark."""
    file_lines: list[tuple[str, str, str]] = field(default_factory=list)
    """The file's alternative lines that branch here: their first moves in words, the
    URL that follows them, and their first note."""


@dataclass
class SideLine:
    branch: int
    moves: list[str]
    choices: list[tuple[str, str]]
    """What can be done next: (label, URL)."""
    to_act: str
    undo_url: str
    back_url: str
    finish_url: str
    next_url: str
    error: str = ""
    hidden: str = ""
    """Why no choices are listed: the seat to act is not the viewer's, in the one-seat view."""
    result: dict[str, Any] | None = None
    result_words: str = ""
    file_notes: list[list[NoteView]] = field(default_factory=list)
    """On a line of the file: its annotations of each move of :attr:`moves`."""
    file_next: str = ""
    """On a line of the file: the URL of its next move."""
    from_file: bool = False

    @property
    def annotated_moves(self) -> list[tuple[str, list[NoteView]]]:
        """Each move in words with the file's notes of it (none off the file's lines)."""
        notes = self.file_notes or [[] for _ in self.moves]
        return list(zip(self.moves, notes, strict=False))


@dataclass
class Nav:
    first: str
    prev: str
    next: str
    last: str
    jumps: dict[str, str]
    """Class → the URL of the viewer seat's next decision of that class (wrapping)."""


@dataclass
class Page:
    step: int
    total: int
    seats: list[SeatView]
    trump: str
    maker: str
    upcard: CardView
    upcard_note: str
    trick_note: str
    last_trick: TrickView | None
    tricks: list[TrickView]
    auction: list[MoveView]
    moves: list[MoveView]
    discard: CardView | None
    discard_note: str
    kitty: list[CardView] | None
    tricks_won: dict[str, int]
    announce: str
    nav: Nav
    decision: DecisionPanel | None
    side: SideLine | None
    hand_over: bool
    outcome: str
    notes: list[str]
    params: Params
    """The parameters shown, once checked: the step clamped, the side line's legal part."""
    play_on: list[tuple[str, str]] = field(default_factory=list)
    """At the end of an unfinished record: each legal next action and its side line's URL."""
    play_on_finish: str = ""
    seen_from: list[tuple[Seat, str, str]] = field(default_factory=list)
    """Each seat, the URL of the page seen from it, and its player's name (or "")."""
    view_urls: dict[str, str] = field(default_factory=dict)
    """Each view (``all``, ``seat``) and the URL of the page in it."""
    main_result: dict[str, Any] = field(default_factory=dict)
    """The hand's result as played, for a side line to be compared with."""
    main_outcome: str = ""
    swing: SwingGraph | None = None
    """The swing graph of the review, for the seen-from seat's side."""


@dataclass(eq=False)
class Node:
    """One position of the hand: the deal, or the position after one more action.

    Like python-chess's ``GameNode``, every node keeps its children: the main line's next
    action and each what-if action tried from here, each built once by copying this
    node's state and applying the action, never by dealing again. A node's state is
    shared by everyone who reads it: copy it before applying anything to it.
    """

    state: HandState
    parent: Node | None = None
    seat: Seat | None = None
    """The seat that took :attr:`action`; ``None`` at the deal."""
    action: Action | None = None
    """The action that led here from :attr:`parent`; ``None`` at the deal."""
    children: dict[str, Node] = field(default_factory=dict)
    """Each action tried from here, by its URL token (:func:`action_token`)."""

    def child(self, action: Action) -> Node:
        """The node after ``action`` from here, made the first time it is asked for.
        Raises ``IllegalActionError`` when the rules forbid it."""
        # A discard the record leaves unknown has no token; only the main line takes it.
        unknown = isinstance(action, Discard) and action.card is None
        token = "x?" if unknown else action_token(action)
        node = self.children.get(token)
        if node is None:
            seat = self.state.current_seat
            state = self.state.copy()
            state.apply(action)
            node = Node(state, self, seat, action)
            self.children[token] = node
        return node


class Replay:
    """A hand's record and review as one tree of positions: the main line from the deal,
    with each what-if line a branch of it (see :class:`Node`)."""

    def __init__(
        self,
        record: dict[str, Any],
        review: Review | None = None,
        double_dummy: DoubleDummy | None = None,
        *,
        notes: Sequence[EgnAnnotation] = (),
        lines: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.record: HandRecord = parse_record(record)
        self.history: list[tuple[Seat, Action]] = list(self.record.state.history)
        # The one deal of the page: every position, main line or what-if, grows from it.
        node = Node(self.record.revealed_state())
        self.mainline: list[Node] = [node]
        """The main line's nodes: ``mainline[n]`` is the position after ``n`` actions."""
        for _, action in self.history:
            node = node.child(action)
            self.mainline.append(node)
        # A review of another record (never expected) is ignored rather than misaligned.
        aligned = review is not None and len(review.decisions) == len(self.history)
        self.review: Review | None = review if aligned else None
        """The hand's review, the one the page reads its marks and values from."""
        self.good: dict[int, Mark] = (
            {}
            if self.review is None
            else good_marks(self.record, self.review, [node.state for node in self.mainline[:-1]])
        )
        """The good plays (``!``, ``!!``) of the review, by step."""
        self.double_dummy = double_dummy
        """The deal's double-dummy table, stored with the review; never searched here."""
        self.side_nodes = 0
        """What-if positions made so far (see :data:`MAX_SIDE_NODES`)."""
        self.notes = steps_of_notes(self.record, notes)
        """The annotations of the file the hand came from, by step."""
        self.file_lines = file_lines_of(self.record, lines)
        """The file's alternative lines, followed on the record."""

    @property
    def total(self) -> int:
        return len(self.history)

    def state_at(self, step: int) -> HandState:
        """The position after ``step`` actions, unknown cards filled in where play showed
        them. The tree's own state: copy it before applying anything to it."""
        return self.mainline[step].state

    def decision(self, step: int) -> DecisionReview | None:
        """The review of the decision taken at ``step``, once the review is done."""
        if self.review is None or not 0 <= step < self.total:
            return None
        return self.review.decisions[step]

    def marked(self, seat: Seat | None = None) -> list[int]:
        """The steps of the decisions marked mistakes, of ``seat`` only when given."""
        return [] if self.review is None else self.review.marked(seat)

    def mark_of(self, step: int) -> Mark | None:
        """The mark of the decision at ``step``: a mistake's, a good play's, or none."""
        d = self.decision(step)
        if d is not None and d.mark is not None:
            return d.mark
        return self.good.get(step)

    def next_marked(
        self, step: int, mark: Mark | tuple[Mark, ...], seat: Seat | None = None
    ) -> int | None:
        """The step of the next decision marked ``mark`` (or any of several) after
        ``step`` (of ``seat`` only, when given), wrapping round to the first; ``None`` when
        there is none."""
        wanted = mark if isinstance(mark, tuple) else (mark,)
        steps = [
            i
            for i in range(self.total)
            if self.mark_of(i) in wanted and (seat is None or self.history[i][0] is seat)
        ]
        if not steps:
            return None
        return next((i for i in steps if i > step), steps[0])

    def dd_table(self) -> tuple[dict[str, Any] | None, str]:
        """The deal's double-dummy table, or ``None`` and why the page has none."""
        if self.double_dummy is None:
            return None, "The double-dummy table appears once the review is done."
        if self.double_dummy.table is None:
            return None, _dd_unavailable(self.double_dummy.error)
        return self.double_dummy.table, ""

    # -- side lines ------------------------------------------------------------------------

    def normalise(self, step: int, line: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
        """A side line that starts with the main line's own actions is the main line further on."""
        while line and step < self.total and line[0] == action_token(self.history[step][1]):
            step += 1
            line = line[1:]
        return step, line

    def branch(self, step: int, line: tuple[str, ...]) -> tuple[Node, list[str], str]:
        """The node the side line ``line`` reaches from ``step``: the node, the tokens that
        were legal, and a message about the first one that was not (or "")."""
        if self.side_nodes > MAX_SIDE_NODES:
            self.forget_side_lines()
        node = self.mainline[step]
        done: list[str] = []
        for token in line:
            state = node.state
            seat = state.current_seat
            try:
                action = parse_token(token)
            except ActionError:
                return node, done, f"“{token[:30]}” is not a call or a card."
            if state.is_terminal or seat is None:
                return node, done, "The hand is over: there is nothing more to play."
            unknown_discard = (
                action == Discard(None)
                and state.phase is Phase.DISCARD
                and None in state.hands[seat]
            )
            if action not in state.legal_actions() and not unknown_discard:
                try:
                    state.copy().apply(action)
                except IllegalActionError as error:
                    reason = str(error)
                else:
                    reason = f"it is not one of {seat.word}'s choices here"
                label = action_label(action, state)
                return node, done, f"{seat.word} cannot {choice_verb(action)} {label}: {reason}."
            made = len(node.children)
            node = node.child(action)
            self.side_nodes += len(node.parent.children) - made if node.parent else 0
            done.append(token)
        return node, done, ""

    def forget_side_lines(self) -> None:
        """Drop every what-if position, keeping the main line."""
        for at, node in enumerate(self.mainline):
            after = self.mainline[at + 1] if at < self.total else None
            node.children = {key: child for key, child in node.children.items() if child is after}
        self.side_nodes = 0


class SolverError(ValueError):
    """The solver cannot go on from this position; the message says why."""


def solver_action(state: HandState, solvers: Solvers) -> Action:
    """The action perfect play takes in ``state``: double-dummy for the discard and the
    cards (ties to the lowest card), the standard bidding policy for the calls."""
    seat = state.current_seat
    assert seat is not None
    if state.phase is Phase.PLAY:
        try:
            position = position_of(state)
        except Unknown as unknown:
            raise SolverError(f"it needs every card known ({unknown.reason})") from None
        values = solvers(position).options(position)
        if position.to_move % 2 == 0:  # North-South maximise their tricks
            pick = max(values, key=lambda c: (values[c], -c))
        else:
            pick = min(values, key=lambda c: (values[c], c))
        return Play(ALL_CARDS[pick])
    if state.phase is Phase.DISCARD:
        try:
            tricks = discard_options(state, solvers)
        except Unknown as unknown:
            raise SolverError(f"it needs every card known ({unknown.reason})") from None
        return Discard(max(tricks, key=lambda c: (tricks[c], -c.index)))
    try:
        return standard_policy(state, seat)
    except Exception as error:  # the policy is not meant to fail; say so rather than crash
        raise SolverError(f"its bidding policy could not decide ({error})") from None


def solver_finish(state: HandState, *, moves: int | None = None) -> list[Action]:
    """The actions the solver takes from ``state`` (applied to it): all of them to the end
    of the hand, or only ``moves``. Raises :class:`SolverError` when it cannot."""
    solvers = Solvers()
    taken: list[Action] = []
    while not state.is_terminal and (moves is None or len(taken) < moves):
        action = solver_action(state, solvers)
        state.apply(action)
        taken.append(action)
    return taken


# -- building the page ---------------------------------------------------------------------


def _completed_tricks(
    state: HandState, marks: Mapping[tuple[Seat, Card], tuple[str, str]]
) -> list[TrickView]:
    out = []
    trump = state.trump
    for number, trick in enumerate(state.tricks, 1):
        if len(trick.cards) == len(state.active_seats):
            cards = [(s.word, card_view(c, trump, mark=marks.get((s, c)))) for s, c in trick.cards]
            out.append(TrickView(number, trick.leader.word, state.trick_winner(trick).word, cards))
    return out


def build_page(
    replay: Replay,
    params: Params,
    *,
    base: str,
    default_seat: Seat,
    notes: list[str] | None = None,
    comment_counts: Mapping[int, int] | None = None,
    you: Seat | None = None,
    names: Mapping[Seat, str] | None = None,
    lists: bool = True,
) -> Page:
    """Everything the replay page shows for ``params``; ``comment_counts`` (step → the
    number of comments on that decision) marks the move list, ``you`` is the
    viewer's own seat, marked when the table is seen from it, and ``names`` the players'
    names the file gave, beside their seats. Without ``lists``, only the board: no move
    lists and no swing graph (a step of the page changes the board alone)."""
    names = names or {}
    notes = list(notes or [])
    comment_counts = comment_counts or {}
    total = replay.total
    step = min(max(params.step, 0), total)
    if step != params.step:
        notes.append(f"This hand has {total} steps: showing step {step}.")
    step, line = replay.normalise(step, params.line)
    params = replace(params, step=step, line=line, auto="")

    def url(**changes: Any) -> str:
        return page_url(base, params, default_seat, **changes)

    side: SideLine | None = None
    node = replay.mainline[step]
    if line:
        node, done, error = replay.branch(step, line)
        line = tuple(done)
        params = replace(params, step=step, line=line, auto="")
        side = _side_line(replay, node, params, url, error)
        _follow_file_line(replay, side, step, line, url)
        if not line:  # nothing legal was left: back on the main line
            side = None
            notes.append(error)
    state = node.state

    viewer = params.seat
    see_all = params.view == "all"
    trump = state.trump
    at = step + len(line)

    # Marks on the cards and calls of the main line, for the lists and the table.
    marks: dict[tuple[Seat, Card], tuple[str, str]] = {}
    for i, (seat, action) in enumerate(replay.history):
        marked = replay.mark_of(i)
        if marked is not None and isinstance(action, Play):
            marks[(seat, action.card)] = (marked.glyph, marked.name)

    # The decision about to be taken, for the viewer's attention.
    decision = None
    if side is None and step < total:
        decision = _decision_panel(replay, state, step, params, url, see_all)
        if not decision.hidden:
            decision.file_notes = replay.notes.get(step, [])
            decision.file_lines = [
                _line_offer(replay, file_line, url)
                for file_line in replay.file_lines
                if file_line.step == step
            ]

    # The card about to be chosen carries its decision's mark in the hand.
    held_marks = {}
    if decision is not None and not decision.hidden and decision.mark:
        action = replay.history[step][1]
        if isinstance(action, Play | Discard) and action.card is not None:
            held_marks[(decision.seat, action.card)] = (decision.mark, decision.cls)
    kind = "act" if side is not None or decision is None else decision.kind
    panels = seat_views(
        state,
        viewer,
        face_up=list(Seat) if see_all else [viewer],
        you=you if you is viewer else None,
        roles=names,
        turn=lambda seat: f"To {'act' if kind == 'call' else kind}",
        held_marks=held_marks,
        # A side line's cards are not the main line's: its marks do not apply to them.
        played_marks=marks if side is None else None,
    )
    winner = next((panel.seat for panel in panels if panel.won_trick), None)

    # The discard: seen by the dealer only, unless everything is visible.
    discard: CardView | None = None
    discard_note = ""
    if state.discarded:
        if see_all or viewer is state.dealer:
            discard = card_view(state.discard, trump)
            discard_note = f"{state.dealer.word} discarded"
        else:
            discard_note = f"{state.dealer.word} discarded a card (hidden from {viewer.word})"

    # The move lists of the main line, marks included, each a link to its step.
    auction: list[MoveView] = []
    moves: list[MoveView] = []
    for i, (seat, action) in enumerate(replay.history if lists else ()):
        walk = replay.mainline[i].state
        mark = replay.mark_of(i)
        dealer_sees = see_all or viewer is walk.dealer
        label = describe(seat, action, walk, discard_visible=dealer_sees)
        if isinstance(action, Play):
            text = card_text(action.card)
        elif isinstance(action, Discard):
            text = card_text(action.card) if dealer_sees and action.card else "discard"
        else:
            text = action_label(action, walk)
        view = MoveView(
            i,
            seat.word,
            text,
            label,
            "" if mark is None else mark.glyph,
            "" if mark is None else mark.name,
            url(step=i, line=()),
            current=side is None and i == step,
            comments=comment_counts.get(i, 0),
            notes=len(replay.notes.get(i, [])),
        )
        (moves if isinstance(action, Play | Discard) else auction).append(view)

    tricks = _completed_tricks(state, marks if side is None else {})
    play_on = []
    if side is None and step == total and not state.is_terminal:
        play_on = [
            (action_label(a, state), url(line=(action_token(a),))) for a in state.legal_actions()
        ]
    announce = _announcement(replay, node, step, line, see_all, viewer)
    jumps = {}
    # Every seat's marks: a review is read for the whole table, not one seat.
    wanted: list[tuple[str, Mark | tuple[Mark, ...]]] = [(m.name, m) for m in MARKS]
    for name, marks_wanted in (*wanted, ("good", GOOD_MARKS)):
        target = replay.next_marked(step, marks_wanted)
        if target is not None:
            jumps[name] = url(step=target, line=())
    if side is not None:
        nav = Nav(
            first=url(step=0, line=()),
            prev=side.undo_url,
            next=side.next_url,
            last=side.finish_url,
            jumps=jumps,
        )
    else:
        nav = Nav(
            first=url(step=0) if step > 0 else "",
            prev=url(step=step - 1) if step > 0 else "",
            next=url(step=step + 1) if step < total else "",
            last=url(step=total) if step < total else "",
            jumps=jumps,
        )

    final = replay.record.state
    return Page(
        step=at,
        total=total,
        seats=panels,
        trump="" if state.strain is None else strain_text(state.strain),
        maker="" if state.maker is None else state.maker.word + (" alone" if state.alone else ""),
        upcard=card_view(state.upcard, trump),
        upcard_note=upcard_note(state, state.dealer.word),
        trick_note=f"{winner.word} won the trick." if winner is not None else "",
        last_trick=tricks[-1] if tricks else None,
        tricks=tricks,
        auction=auction,
        moves=moves,
        discard=discard,
        discard_note=discard_note,
        kitty=[card_view(c, trump) for c in state.kitty] if see_all else None,
        tricks_won={"NS": state.tricks_won[Team.NS], "EW": state.tricks_won[Team.EW]},
        announce=announce,
        nav=nav,
        decision=decision,
        side=side,
        hand_over=state.is_terminal,
        outcome=result_text(state) if state.is_terminal else "",
        notes=[n for n in notes if n],
        params=params,
        play_on=play_on,
        play_on_finish=url(auto="all") if play_on else "",
        seen_from=[(seat, url(seat=seat), names.get(seat, "")) for seat in Seat],
        view_urls={view: url(view=view) for view in VIEWS},
        main_result=final.result().to_json(),
        main_outcome=result_text(final) if final.is_terminal else "",
        swing=swing_graph(
            replay,
            viewer.team,
            url=lambda i: url(step=i, line=()),
            current=step if side is None else None,
        )
        if lists
        else None,
    )


def _line_offer(
    replay: Replay, file_line: FileLine, url: Callable[..., str]
) -> tuple[str, str, str]:
    """A line of the file that branches at a step: its first moves, its URL, its first note."""
    node, done, _ = replay.branch(file_line.step, file_line.tokens[:3])
    moves = []
    walk = node
    for _ in done:
        assert walk.parent is not None and walk.seat is not None and walk.action is not None
        moves.append(describe(walk.seat, walk.action, walk.parent.state, discard_visible=True))
        walk = walk.parent
    moves.reverse()
    words = " ".join(moves) + (" …" if len(file_line.tokens) > len(done) else "")
    first = next(iter(file_line.notes.values()), [])
    note = first[0].text if first else ""
    return words, url(step=file_line.step, line=file_line.tokens[:1]), note


def _follow_file_line(
    replay: Replay, side: SideLine, step: int, line: tuple[str, ...], url: Callable[..., str]
) -> None:
    """On a line the file gives (so far), its notes beside each move, and its next move."""
    for file_line in replay.file_lines:
        if file_line.step == step and file_line.tokens[: len(line)] == line:
            side.from_file = True
            side.file_notes = [file_line.notes.get(i, []) for i in range(len(line))]
            if len(file_line.tokens) > len(line):
                side.file_next = url(line=file_line.tokens[: len(line) + 1])
            return


def _announcement(
    replay: Replay,
    node: Node,
    step: int,
    line: tuple[str, ...],
    see_all: bool,
    viewer: Seat,
) -> str:
    """What the live region says at this step."""
    state = node.state
    at = step + len(line)
    parts = []
    if line:
        parts.append(f"What-if line, move {len(line)} from step {step}.")
    else:
        parts.append(f"Step {step} of {replay.total}.")
    if at == 0:
        parts.append(
            f"The deal: {replay.record.dealer.word} deals; the upcard is "
            f"{the(replay.record.upcard, None)}."
        )
    elif node.parent is not None and node.seat is not None and node.action is not None:
        # Describe the last action from the position before it.
        seat, action = node.seat, node.action
        dealer_sees = see_all or viewer is state.dealer
        parts.append(describe(seat, action, node.parent.state, discard_visible=dealer_sees))
        if isinstance(action, Play) and state.tricks:
            trick = shown_trick(state)
            if trick is not None and len(trick.cards) == len(state.active_seats):
                parts.append(f"{state.trick_winner(trick).word} wins the trick.")
    if state.is_terminal:
        parts.append(result_text(state))
    elif state.current_seat is not None:
        parts.append(f"{state.current_seat.word} to {phase_verb(state.phase)}.")
    return " ".join(parts)


def _decision_panel(
    replay: Replay,
    state: HandState,
    step: int,
    params: Params,
    url: Callable[..., str],
    see_all: bool,
) -> DecisionPanel:
    seat, action = replay.history[step]
    kind = (
        "play" if isinstance(action, Play) else "discard" if isinstance(action, Discard) else "call"
    )
    d = replay.decision(step)
    mark = replay.mark_of(step)
    panel = DecisionPanel(
        seat=seat,
        kind=kind,
        chosen=action_label(action, state),
        mark="" if mark is None else mark.glyph,
        cls="" if mark is None else mark.name,
        explanation=(d.explanation if d else None) or "",
    )
    found = None if d is None else margin_of(d)
    if mark is not None and mark.good and found is not None:
        panel.explanation = (
            f"A fine find: the best option by {found[0]:.2f} expected points over any "
            "other, and not the one the standard policy (a sound player's choice) makes."
        )
    if not see_all and seat is not params.seat:
        panel.hidden = True
        return panel
    foresight = None if d is None else d.foresight
    dd = {o.card: o.dd_tricks for o in (d.options if d and d.options else ())}
    best_key = (foresight.best if foresight else None) or ""
    chosen_key = option_key(action)
    rows = []
    for option in state.legal_actions():
        key = option_key(option)
        value = None if foresight is None else foresight.value_of(key)
        rows.append(
            OptionRow(
                label=action_label(option, state),
                key=key,
                ev=None if value is None else value.ev,
                se=None if value is None else value.se,
                dd=dd.get(key),
                chosen=key == chosen_key,
                best=bool(best_key) and key == best_key,
                url=url(step=step + 1, line=())
                if key == chosen_key
                else url(step=step, line=(action_token(option),)),
            )
        )
    if any(r.ev is not None for r in rows):
        rows.sort(key=lambda r: -(r.ev if r.ev is not None else -99))
    panel.options = rows
    if best_key:
        best_row = next((r for r in rows if r.key == best_key), None)
        panel.best = best_row.label if best_row else best_key
    if foresight is not None and foresight.graded:
        panel.loss = foresight.loss
        panel.samples = foresight.samples
    if d is None:
        panel.note = "The review is not ready yet: the options are shown without their values."
    elif (foresight is not None and foresight.forced) or len(rows) == 1:
        panel.note = "Only one choice was possible here."
    elif foresight is not None and not foresight.graded:
        panel.note = f"Not reviewed: {foresight.reason}."
    elif not d.reviewable and foresight is None:
        reason = "cards are unknown" if d.reason is None else d.reason
        panel.note = f"Not reviewed: {reason}."
    return panel


def _side_line(
    replay: Replay,
    node: Node,
    params: Params,
    url: Callable[..., str],
    error: str,
) -> SideLine:
    step, line = params.step, params.line
    state = node.state
    # Words for the moves of the line, each described from the position before it.
    moves = []
    walk = node
    for _ in line:
        assert walk.parent is not None and walk.seat is not None and walk.action is not None
        moves.append(describe(walk.seat, walk.action, walk.parent.state, discard_visible=True))
        walk = walk.parent
    moves.reverse()
    choices = []
    hidden = ""
    to_act = state.current_seat
    if (
        to_act is not None
        and params.view != "all"
        and to_act is not params.seat
        and state.phase in (Phase.DISCARD, Phase.PLAY)
    ):
        # Listing another seat's cards would show what this view keeps hidden.
        hidden = (
            f"{to_act.word}'s cards are hidden while the page shows only what "
            f"{params.seat.word} saw: let the solver play for {to_act.word}."
        )
    elif not state.is_terminal:
        for option in state.legal_actions():
            choices.append((action_label(option, state), url(line=(*line, action_token(option)))))
    side = SideLine(
        branch=step,
        moves=moves,
        choices=choices,
        to_act="" if state.current_seat is None else state.current_seat.word,
        undo_url=url(line=line[:-1]),
        back_url=url(line=()),
        finish_url="" if state.is_terminal else url(auto="all"),
        next_url="" if state.is_terminal else url(auto="1"),
        error=error,
        hidden=hidden,
    )
    if state.is_terminal:
        side.result = state.result().to_json()
        side.result_words = result_text(state)
    return side


def with_solver_moves(replay: Replay, params: Params) -> tuple[Params, str]:
    """``params`` with the solver's moves added to the side line, as ``params.auto`` asks
    (one move, or all to the end of the hand), and a message when it could not play."""
    if not params.auto:
        return params, ""
    step = min(max(params.step, 0), replay.total)
    step, line = replay.normalise(step, params.line)
    node, done, error = replay.branch(step, line)
    if error:
        return replace(params, step=step, line=tuple(done), auto=""), error
    try:
        # The solver plays on a copy: the tree's states are never changed.
        taken = solver_finish(node.state.copy(), moves=1 if params.auto == "1" else None)
        message = ""
    except SolverError as problem:
        taken = []
        message = f"The solver cannot play on from here: {problem}."
    line = (*done, *(action_token(a) for a in taken))
    step, line = replay.normalise(step, line)
    return replace(params, step=step, line=line, auto=""), message


# -- the hand summary ------------------------------------------------------------------------


@dataclass
class SeatSummary:
    seat: Seat
    accuracy: int | None
    graded: int
    counts: dict[str, int]


@dataclass
class MistakeView:
    step: int
    seat: str
    text: str
    mark: str
    cls: str
    loss: float | None
    best: str
    url: str


@dataclass
class Summary:
    seats: list[SeatSummary]
    mistakes: list[MistakeView]
    dd_rows: list[tuple[str, int, int, dict[str, int]]]
    """Each strain: its name, North-South's and East-West's tricks, and each seat alone."""
    dd_error: str
    outcome: str
    points: dict[str, int] | None
    tricks: dict[str, int]
    file_notes: list[tuple[int, str, NoteView, str]] = field(default_factory=list)
    """The file's annotations in step order: the step, the move in words, the note and
    the URL of the step."""
    file_lines: int = 0
    """How many of the file's alternative lines the page can follow."""
    good_plays: list[MistakeView] = field(default_factory=list)
    """The decisions marked good plays (``!``, ``!!``); their ``loss`` is the margin."""


def build_summary(replay: Replay, *, url: Callable[[int], str]) -> Summary:
    """Each seat's accuracy, the marked decisions with their links, the deal's double-dummy
    table and the points. ``url(step)`` links to a step of the main line."""
    review = replay.review
    seats = []
    for seat in Seat:
        accuracy = None if review is None else review.accuracy(seat)
        graded = 0 if review is None else sum(1 for d in review.of_seat(seat) if d.graded)
        counts = {m.name: 0 if review is None else review.count(m, seat) for m in MARKS}
        seats.append(
            SeatSummary(seat, None if accuracy is None else round(accuracy), graded, counts)
        )
    mistakes = []
    good_plays: list[MistakeView] = []
    for i, (seat, action) in enumerate(replay.history):
        walk = replay.mainline[i].state
        d = replay.decision(i)
        good = replay.good.get(i)
        if d is not None and d.mark is None and good is not None:
            found = margin_of(d)
            good_plays.append(
                MistakeView(
                    i,
                    seat.word,
                    describe(seat, action, walk, discard_visible=True).rstrip("."),
                    good.glyph,
                    good.name,
                    None if found is None else found[0],
                    "",
                    url(i),
                )
            )
        if d is not None and d.mark is not None:
            foresight = d.foresight
            best_key = None if foresight is None else foresight.best
            best = ""
            for option in walk.legal_actions():
                if option_key(option) == best_key:
                    best = action_label(option, walk)
            where = f" (trick {len(walk.tricks)})" if isinstance(action, Play) else ""
            mistakes.append(
                MistakeView(
                    i,
                    seat.word,
                    describe(seat, action, walk, discard_visible=True).rstrip(".") + where,
                    d.mark.glyph,
                    d.mark.name,
                    d.loss,
                    best,
                    url(i),
                )
            )
    dd_rows = []
    table, dd_error = replay.dd_table()
    for strain, row in (table or {}).items():
        name = "No-trump" if strain == NT else strain_text(Suit(strain)).capitalize()
        dd_rows.append((name, row["NS"], 5 - row["NS"], dict(row["alone"])))
    result = replay.record.state.result()
    final = replay.record.state
    file_notes = []
    for step in sorted(replay.notes):
        if step < replay.total:
            seat, action = replay.history[step]
            walk = replay.mainline[step].state
            move = describe(seat, action, walk, discard_visible=True).rstrip(".")
        else:
            move = "The deal"
        for note in replay.notes[step]:
            file_notes.append((step, move, note, url(step)))
    return Summary(
        good_plays=good_plays,
        file_notes=file_notes,
        file_lines=len(replay.file_lines),
        seats=seats,
        mistakes=mistakes,
        dd_rows=dd_rows,
        dd_error=dd_error,
        outcome=result_text(final) if final.is_terminal else "The record stops before the end.",
        points=None if result.points is None else {t.value: result.points[t] for t in Team},
        tricks={t.value: result.tricks[t] for t in Team},
    )


def _dd_unavailable(error: str) -> str:
    """Why the deal has no double-dummy table, in words: ``hands.S: …`` names a seat."""
    field, _, _ = error.partition(":")
    if field.startswith("hands.") and field[6:] in "NESW" and len(field) == 7:
        seat = parse_seat(field[6:])
        return (
            "Not available: it needs every card of the deal, and the record leaves some "
            f"of {seat.word}'s cards unknown (shown as ?)."
        )
    return f"Not available: {error}."


# -- the swing graph -------------------------------------------------------------------------


@dataclass
class SwingRow:
    """One decision of the swing graph, as its table (the graph's text equivalent) lists it."""

    step: int
    move: str
    foresight: float | None
    """Expected net points of the side after this decision, by foresight."""
    hindsight: float | None
    """Net points of the side after it with every card visible (double dummy)."""
    mark: str
    cls: str
    url: str
    current: bool

    @property
    def foresight_text(self) -> str:
        """The foresight value as the table writes it (two decimals), or a dash."""
        return "–" if self.foresight is None else f"{self.foresight:.2f}"

    @property
    def hindsight_text(self) -> str:
        """The hindsight points as the table writes them (whole), or a dash."""
        return "–" if self.hindsight is None else f"{self.hindsight:.0f}"


@dataclass
class SwingGraph:
    side: str
    """The side the values are for (``North–South``…)."""
    svg: str
    rows: list[SwingRow]


def _net(points: Mapping[Team, int] | None, side: Team) -> float | None:
    if points is None:
        return None
    return float(points[side] - points[side.other])


def _hindsight_points(state: HandState, seat: Seat, tricks: int | None, side: Team) -> float | None:
    """The net points of ``side`` when the decider's side ends the hand with ``tricks``."""
    if tricks is None or state.maker is None:
        return None
    won = {seat.team: tricks, seat.team.other: 5 - tricks}
    result = score_hand(
        rules=state.rules,
        strain=None if state.strain is None else str(state.strain),
        maker=state.maker,
        alone=state.alone,
        defender_alone=state.defender_alone,
        tricks=won,
        finished=True,
    )
    return _net(result.points, side)


def swing_graph(
    replay: Replay, side: Team, *, url: Callable[[int], str], current: int | None = None
) -> SwingGraph | None:
    """The swing graph of the stored review: after each graded decision, the expected net
    points of ``side`` with the option chosen (foresight), and the points it leaves with
    every card visible (hindsight, for the discard and the cards); each a link to its step.
    ``None`` before the review is done or when it graded nothing."""
    if replay.review is None:
        return None
    rows: list[SwingRow] = []
    for i, (seat, action) in enumerate(replay.history):
        d = replay.decision(i)
        assert d is not None
        state = replay.mainline[i].state
        sign = 1.0 if seat.team is side else -1.0
        chosen = option_key(action)
        fore = None
        if d.foresight is not None and d.foresight.graded:
            value = d.foresight.value_of(chosen)
            fore = None if value is None else round(sign * value.ev, 2)
        dd = {o.card: o.dd_tricks for o in d.options or ()}
        hind = _hindsight_points(state, seat, dd.get(chosen), side)
        if fore is None and hind is None:
            continue
        mark = replay.mark_of(i)
        rows.append(
            SwingRow(
                step=i,
                move=describe(seat, action, state, discard_visible=True).rstrip("."),
                foresight=fore,
                hindsight=hind,
                mark="" if mark is None else mark.glyph,
                cls="" if mark is None else mark.name,
                url=url(i),
                current=i == current,
            )
        )
    if not rows:
        return None
    words = "North–South" if side is Team.NS else "East–West"
    values = [v for r in rows for v in (r.foresight, r.hindsight) if v is not None]
    top = max(2.0, math.ceil(max(abs(v) for v in values) + 0.25))  # dots off the edge

    def point(row: SwingRow, value: float, what: str) -> Point:
        mark = f", marked {row.mark} ({row.cls})" if row.mark else ""
        label = f"Step {row.step}: {row.move}: {value:+.2f} points for {words}, {what}{mark}"
        return Point(row.step, value, label, row.url, row.mark, row.current, row.step)

    fore_points = tuple(point(r, r.foresight, "foresight") for r in rows if r.foresight is not None)
    hind_points = tuple(point(r, r.hindsight, "hindsight") for r in rows if r.hindsight is not None)
    # A glyph once is enough: on the foresight line, where the marks come from.
    hind_points = tuple(replace(p, glyph="") for p in hind_points)
    svg = line_chart(
        chart_id="swing",
        title=f"The hand's swing: {words}'s points after each decision",
        desc=(
            f"Expected net points for {words} after each reviewed decision: a solid line "
            "with round dots by foresight (what the decider could know), a dashed line with "
            "square dots by hindsight (every card visible). Marked decisions carry their "
            "mark. Each dot links to its step; the table below gives the same values."
        ),
        series=[
            Series("Foresight", fore_points, "solid", "circle"),
            Series("Hindsight", hind_points, "dashed", "square"),
        ],
        x_max=replay.total,
        y_min=-top,
        y_max=top,
        x_label="Step",
        y_label=f"Points for {words}",
        link_attrs='class="chart__link"',
        hx=True,
    )
    return SwingGraph(words, svg, rows)


# -- reviews compared --------------------------------------------------------------------


@dataclass(frozen=True)
class MarkChange:
    """A decision marked one way by one review and another way by another."""

    step: int
    move: str
    before: str
    """Its mark in the other review, in words (``unmarked``, ``a mistake (?)``)."""
    after: str
    """Its mark in the review shown."""


def _mark_words(mark: Mark | None) -> str:
    if mark is None:
        return "unmarked"
    article = "an" if mark.name[0] in "aeiou" else "a"
    return f"{article} {mark.name} ({mark.glyph})"


def mark_changes(record: HandRecord, shown: Review, other: Review) -> list[MarkChange]:
    """The decisions whose mistake mark differs between the review ``shown`` and ``other``
    (two reviews of ``record`` with other parameters or solvers), in step order."""
    history = record.state.history
    if len(shown.decisions) != len(history) or len(other.decisions) != len(history):
        return []
    out = []
    state = record.revealed_state()
    for i, ((seat, action), a, b) in enumerate(
        zip(history, shown.decisions, other.decisions, strict=True)
    ):
        if a.mark != b.mark:
            move = describe(seat, action, state, discard_visible=True).rstrip(".")
            out.append(MarkChange(i, move, _mark_words(b.mark), _mark_words(a.mark)))
        state.apply(action)
    return out
