import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.actions import format_action
from games.engine.cards import Seat, Suit, parse_card
from games.engine.hand import Phase
from games.engine.rules import PRESETS, Points, Rules
from games.models import HUMAN_SEAT, GamePlay
from games.table import sort_hand
from tests.conftest import Sent

from .conftest import human_choice

pytestmark = pytest.mark.django_db

START = {
    "rules": "standard",
    "target": "10",
    "partner_level": "normal",
    "opponents_level": "easy",
    "stick_the_dealer": "on",
    "farmers_hand": "off",
    "lone_lead": "left_of_dealer",
}


def buttons(html: str) -> list[str]:
    """The values of the action buttons on the page."""
    return re.findall(r'name="action" value="([^"]+)"', html)


def controls(html: str) -> list[str]:
    return [v for v in buttons(html) if not v.startswith(("play ", "discard "))]


def until_player_chooses(game: GamePlay) -> None:
    while game.automatic_action(game.rebuild()) is not None:
        game.advance()


def find_game(owner: User, rules: Rules, want, tries: int = 400) -> GamePlay:
    """A game whose first decision for the player satisfies `want(state)`."""
    for seed in range(tries):
        game = GamePlay.objects.start(owner, rules, seed=seed)
        until_player_chooses(game)
        while True:
            state = game.rebuild().hand
            if state.current_seat is not HUMAN_SEAT or state.phase is not Phase.AUCTION:
                break
            if want(state):
                return game
            game.act("pass")
            until_player_chooses(game)
        game.delete()
    raise AssertionError("no such deal found")


def test_play_needs_a_logged_in_user(client: Client) -> None:
    response = client.get(reverse("games:play"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert client.post(reverse("games:start_game"), START).status_code == 302
    assert GamePlay.objects.count() == 0


def test_play_is_in_the_main_nav(client: Client, owner: User) -> None:
    client.force_login(owner)
    page = client.get(reverse("games:play")).content.decode()
    assert f'<a href="{reverse("games:play")}" aria-current="page">Play</a>' in page


def test_starting_a_game_saves_it_and_opens_the_table(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.post(reverse("games:start_game"), START)
    game = GamePlay.objects.get()
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert (game.owner, game.rules, game.target) == (owner, {}, 10)
    assert (game.partner_level, game.opponents_level) == ("normal", "easy")
    page = client.get(response["Location"]).content.decode()
    assert 'aria-live="polite"' in page
    for seat in ("North", "West", "East", "South"):
        assert seat in page
    assert "Your partner (normal)" in page and "Opponent (easy)" in page


def test_a_custom_game_uses_the_options_and_the_target(client: Client, owner: User) -> None:
    client.force_login(owner)
    data = {**START, "rules": "custom", "target": "5", "no_trump": "on", "defend_alone": "on"}
    client.post(reverse("games:start_game"), {**data, "points_march": "3", "points_euchre": ""})
    game = GamePlay.objects.get()
    points = Points(march=3)
    assert game.rules_value == Rules(no_trump=True, defend_alone=True, target=5, points=points)
    assert game.rules == {
        "no_trump": True,
        "defend_alone": True,
        "target": 5,
        "points": {"march": 3},
    }


def test_a_preset_ignores_the_custom_options(client: Client, owner: User) -> None:
    client.force_login(owner)
    client.post(reverse("games:start_game"), {**START, "rules": "redeal", "no_trump": "on"})
    assert GamePlay.objects.get().rules_value == PRESETS["redeal"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"target": "7"}, "Select a valid choice. 7 is not one of the available choices."),
        ({"rules": "cutthroat"}, "Select a valid choice. cutthroat is not one"),
        ({"opponents_level": "expert"}, "Select a valid choice. expert is not one"),
        (
            {"rules": "custom", "points_march": "-1"},
            "Ensure this value is greater than or equal to 0.",
        ),
        (
            {"rules": "custom", "farmers_redeal": "on"},
            "This needs the farmer&#x27;s hand: choose how it is played.",
        ),
    ],
)
def test_a_bad_start_form_says_what_is_wrong(
    client: Client, owner: User, change: dict[str, str], message: str
) -> None:
    client.force_login(owner)
    response = client.post(reverse("games:start_game"), {**START, **change})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Please correct the error below." in page
    assert message in page
    assert GamePlay.objects.count() == 0


def test_only_the_owner_sees_a_game(client: Client, owner: User, stranger: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    client.force_login(stranger)
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 404
    for name in ("games:game_act", "games:game_advance", "games:game_next_hand"):
        assert client.post(reverse(name, args=[game.pk]), {"action": "pass"}).status_code == 404
    assert f"Game {game.pk}" not in client.get(reverse("games:play")).content.decode()
    client.logout()
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 302


def test_the_actions_need_post(client: Client, owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    client.force_login(owner)
    for name in ("games:game_act", "games:game_advance", "games:game_next_hand"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 405


def test_the_page_asks_for_the_next_computer_action_until_it_is_my_turn(
    client: Client, owner: User
) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    client.force_login(owner)
    url = reverse("games:game_advance", args=[game.pk])
    for _ in range(10):
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        if game.automatic_action(game.rebuild()) is None:
            break
        assert 'hx-trigger="load delay:' in page
        assert f'action="{url}"' in page
        step = game.step
        response = client.post(
            url, {"hand_number": 1, "step": step}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 200
        assert 'id="table"' in response.content.decode()
        assert 'hx-swap-oob="innerHTML"' in response.content.decode()
        game.refresh_from_db()
        assert game.step == step + 1
    assert game.rebuild().hand.current_seat is HUMAN_SEAT
    assert "load delay" not in page
    assert "Your call." in page


def test_an_action_without_htmx_redirects_back_to_the_table(client: Client, owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    until_player_chooses(game)
    client.force_login(owner)
    url = reverse("games:game_act", args=[game.pk])
    response = client.post(url, {"action": "pass", "hand_number": 1, "step": game.step})
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert GamePlay.objects.get().hands[0][-1] == "pass"


def test_an_illegal_or_stale_action_shows_a_message_not_an_error(
    client: Client, owner: User
) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    until_player_chooses(game)
    client.force_login(owner)
    url = reverse("games:game_act", args=[game.pk])
    step = game.step
    response = client.post(
        url, {"action": "play AS", "hand_number": 1, "step": step}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "You cannot do that" in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    response = client.post(url, {"action": "pass", "hand_number": 1, "step": step - 1}, follow=True)
    assert "out of date" in response.content.decode()
    response = client.post(url, {"action": "pass", "hand_number": "x", "step": "y"}, follow=True)
    assert "out of date" in response.content.decode()
    assert GamePlay.objects.get().step == step


def test_the_first_round_offers_order_up_alone_and_pass(client: Client, owner: User) -> None:
    game = find_game(owner, Rules(), lambda s: s.round == 1 and s.dealer is not HUMAN_SEAT)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert controls(page) == ["pass", "order_up", "order_up alone"]
    assert "Order it up (" in page and "and go alone" in page
    assert "Pick it up" not in page


def test_the_dealer_is_offered_to_pick_it_up(client: Client, owner: User) -> None:
    game = find_game(owner, Rules(), lambda s: s.round == 1 and s.dealer is HUMAN_SEAT)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert controls(page) == ["pass", "order_up", "order_up alone"]
    assert "Pick it up (" in page


def test_the_second_round_never_offers_the_turned_down_suit(client: Client, owner: User) -> None:
    game = find_game(owner, Rules(), lambda s: s.round == 2 and not s.stuck)
    turned = game.rebuild().hand.upcard.suit
    client.force_login(owner)
    offered = controls(client.get(reverse("games:game", args=[game.pk])).content.decode())
    assert offered[0] == "pass"
    named = {v.split()[1] for v in offered[1:]}
    assert named == {"S", "H", "D", "C"} - {str(turned)}
    assert "name NT" not in offered


def test_a_stuck_dealer_has_no_pass(client: Client, owner: User) -> None:
    game = find_game(owner, Rules(), lambda s: s.stuck)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "pass" not in controls(page)
    assert len(controls(page)) == 6
    assert "you are stuck and must name a suit" in page


def test_without_stick_the_dealer_the_dealer_may_pass(client: Client, owner: User) -> None:
    rules = PRESETS["redeal"]
    game = find_game(owner, rules, lambda s: s.round == 2 and s.dealer is HUMAN_SEAT)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert controls(page)[0] == "pass"


def test_no_trump_is_offered_only_where_the_rules_have_it(client: Client, owner: User) -> None:
    game = find_game(owner, PRESETS["no-trump"], lambda s: s.round == 2)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert {"name NT", "name NT alone"} <= set(controls(page))
    assert "Call no-trump" in page


def test_the_canadian_loner_offers_the_dealers_partner_only_alone(
    client: Client, owner: User
) -> None:
    rules = PRESETS["canadian-loner"]
    game = find_game(owner, rules, lambda s: s.round == 1 and s.dealer is Seat.N)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert controls(page) == ["pass", "order_up alone"]


def test_defend_alone_is_offered_only_where_the_rules_have_it(client: Client, owner: User) -> None:
    client.force_login(owner)
    for seed in range(200):
        game = GamePlay.objects.start(owner, PRESETS["defend-alone"], seed=seed)
        until_player_chooses(game)
        while game.rebuild().hand.phase is Phase.AUCTION:
            game.act("pass")
            until_player_chooses(game)
        if game.rebuild().hand.phase is Phase.DEFEND:
            break
    else:
        raise AssertionError("no deal where the opponents make trump")
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert controls(page) == ["pass", "defend_alone"]
    assert "Defend alone" in page and "Don&#x27;t defend alone" in page


def test_the_farmers_hand_is_offered_only_with_three_of_a_kind(client: Client, owner: User) -> None:
    client.force_login(owner)
    for seed in range(3000):
        game = GamePlay.objects.start(owner, PRESETS["farmers-hand"], seed=seed)
        until_player_chooses(game)
        if game.rebuild().hand.phase is Phase.FARMER:
            break
        game.delete()
    else:
        raise AssertionError("no farmer's hand dealt to South")
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    offered = controls(page)
    assert offered[0] == "pass" and "Keep my hand" in page
    # seed 002's clean farmer's hand: three of a kind, three 9s or three 10s.
    cards = offered[1].split()[1:]
    assert offered[1].startswith("farmer ") and "for the kitty" in page
    assert len(cards) == 3 and len({c[0] for c in cards}) == 1 and cards[0][0] in "9T"


def test_options_the_rules_lack_are_never_offered(client: Client, owner: User) -> None:
    client.force_login(owner)
    for seed in range(20):
        game = GamePlay.objects.start(owner, Rules(), seed=seed)
        for _ in range(40):
            until_player_chooses(game)
            state = game.rebuild().hand
            if state.is_terminal:
                break
            offered = controls(client.get(reverse("games:game", args=[game.pk])).content.decode())
            assert not any(v.startswith(("farmer", "defend_alone", "name NT")) for v in offered)
            game.act(human_choice(game))


def test_in_play_only_legal_cards_are_enabled(client: Client, owner: User) -> None:
    client.force_login(owner)
    for seed in range(50):
        game = GamePlay.objects.start(owner, Rules(), seed=seed)
        for _ in range(40):
            until_player_chooses(game)
            state = game.rebuild().hand
            if state.is_terminal:
                break
            if state.phase is Phase.PLAY and state.current_trick and state.current_trick.cards:
                legal = {f"play {c}" for c in state.legal_cards(HUMAN_SEAT)}
                held = [c for c in state.hands[HUMAN_SEAT] if c is not None]
                if len(legal) < len(held):
                    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
                    enabled = set(
                        re.findall(
                            r'value="(play [^"]+)" class="[^"]*"(?! disabled)',
                            page,
                        )
                    )
                    assert enabled == legal
                    assert page.count(" disabled") >= len(held) - len(legal)
                    return
            game.act(human_choice(game))
    raise AssertionError("no spot where South had to follow suit")


def test_the_game_continues_where_it_was_after_a_reload(client: Client, owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=4)
    client.force_login(owner)
    advance = reverse("games:game_advance", args=[game.pk])
    shown = ""
    for _ in range(12):  # what the page showed after each step, over HTMX
        response = client.post(
            advance,
            {"hand_number": game.hand_number, "step": game.step},
            headers={"HX-Request": "true"},
        )
        game.refresh_from_db()
        shown = response.content.decode()
        if game.automatic_action(game.rebuild()) is None:
            game.act(human_choice(game))
    game.refresh_from_db()
    shown = client.post(
        advance,
        {"hand_number": game.hand_number, "step": game.step},
        headers={"HX-Request": "true"},
    ).content.decode()
    game.refresh_from_db()

    def part(html: str, pattern: str) -> list[str]:
        return re.findall(pattern, html, re.S)

    reloaded = client.get(reverse("games:game", args=[game.pk])).content.decode()
    for pattern in (
        r'<ol class="auction">.*?</ol>',
        r'<ul class="hand".*?</ul>',
        r'<div class="felt".*?<section',
        r'name="step" value="\d+"',
    ):
        assert part(reloaded, pattern) == part(shown, pattern), pattern
    assert part(reloaded, r'<ul class="hand".*?</ul>')
    listing = client.get(reverse("games:play")).content.decode()
    assert f"Continue game {game.pk}" in listing
    assert reverse("games:game", args=[game.pk]) in listing


def test_a_finished_hand_shows_the_summary_and_links_to_my_hands(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    from .conftest import play_to_end_of_hand

    game = GamePlay.objects.start(owner, Rules(), seed=2)
    play_to_end_of_hand(game)
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Hand 1 is over" in page
    hand = game.saved_hands.get()
    assert f"{reverse('games:my_hands')}#hand-{hand.pk}" in page
    assert "Deal the next hand" in page
    mine = client.get(reverse("games:my_hands")).content.decode()
    assert f'id="hand-{hand.pk}"' in mine
    client.post(reverse("games:game_next_hand", args=[game.pk]), {"hand_number": 1})
    assert GamePlay.objects.get().hand_number == 2


def test_my_only_legal_card_is_played_for_me_after_a_pause(client: Client, owner: User) -> None:
    client.force_login(owner)
    for seed in range(50):
        game = GamePlay.objects.start(owner, Rules(), seed=seed)
        for _ in range(40):
            live = game.rebuild()
            state = live.hand
            if state.is_terminal:
                break
            if state.current_seat is HUMAN_SEAT and state.phase is Phase.PLAY:
                legal = state.legal_actions()
                held = [c for c in state.hands[HUMAN_SEAT] if c is not None]
                if len(legal) == 1 and len(held) > 1:
                    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
                    assert "is played for you" in page
                    assert 'hx-trigger="load delay:' in page
                    step = game.step
                    client.post(
                        reverse("games:game_advance", args=[game.pk]),
                        {"hand_number": game.hand_number, "step": step},
                    )
                    game.refresh_from_db()
                    assert game.hands[-1][step] == format_action(legal[0])
                    return
            if game.automatic_action(live) is not None:
                game.advance()
            else:
                game.act(human_choice(game))
    raise AssertionError("no spot where South had a single legal card")


def test_my_hand_shows_trump_first_with_the_left_bower() -> None:
    cards = [parse_card(c) for c in ("AH", "JD", "9S", "JH", "KC")]
    assert [str(c) for c in sort_hand(cards, Suit.DIAMONDS)] == ["JD", "JH", "9S", "AH", "KC"]
    assert [str(c) for c in sort_hand(cards, None)] == ["9S", "AH", "JH", "JD", "KC"]


def test_the_end_of_the_game_is_shown(client: Client, owner: User, sent: list[Sent]) -> None:
    from .conftest import play_to_end_of_hand

    game = GamePlay.objects.start(owner, Rules(target=5), seed=9)
    while game.status == GamePlay.Status.PLAYING:
        play_to_end_of_hand(game)
        if game.status == GamePlay.Status.PLAYING:
            game.next_hand()
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert re.search(r"(You and North win the game!|West and East win the game\.)", page)
    assert f"Final score {game.scores['NS']}–{game.scores['EW']}" in page
    assert "Deal the next hand" not in page
    listing = client.get(reverse("games:play")).content.decode()
    assert f"Continue game {game.pk}" not in listing
    assert "Finished games" in listing


def test_the_dealer_discards_by_clicking_a_card(client: Client, owner: User) -> None:
    game = find_game(owner, Rules(), lambda s: s.round == 1 and s.dealer is HUMAN_SEAT)
    game.act("order_up")
    client.force_login(owner)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    offered = buttons(page)
    assert len(offered) == 6 and all(v.startswith("discard ") for v in offered)
    assert "choose a card to discard" in page
    assert " disabled" not in page.split('<ul class="hand"')[1].split("</ul>")[0]
    upcard = game.rebuild().hand.upcard
    response = client.post(
        reverse("games:game_act", args=[game.pk]),
        {"action": f"discard {upcard}", "hand_number": 1, "step": game.step},
        headers={"HX-Request": "true"},
    )
    assert "You discard the" in response.content.decode()
    assert GamePlay.objects.get().rebuild().hand.discard == upcard


def test_the_admin_lists_games(admin_client: Client, owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    assert admin_client.get("/admin/games/gameplay/").status_code == 200
    assert admin_client.get(f"/admin/games/gameplay/{game.pk}/change/").status_code == 200


def test_a_link_fills_in_the_play_form(client: Client, owner: User) -> None:
    client.force_login(owner)
    page = client.get("/play/?preset=no-trump&target=15").content.decode()
    assert '<option value="no-trump" selected>' in page
    assert '<option value="15" selected>' in page


def test_a_links_bad_values_are_left_out_with_a_message(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.get("/play/", {"preset": "<script>", "target": "7", "assignment": "99999"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "The link&#x27;s preset “&lt;script&gt;” is not one of ours" in page
    assert "The link&#x27;s target “7” is not one of ours (5, 10, 15)" in page
    assert "The link&#x27;s assignment is not one of yours" in page
    assert '<option value="standard" selected>' in page
    assert '<option value="10" selected>' in page
    custom = client.get("/play/?preset=custom").content.decode()
    assert "A link cannot ask for custom rules" in custom


def test_a_games_page_draws_the_score_after_each_saved_hand(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    from .conftest import play_to_end_of_hand

    game = GamePlay.objects.start(owner, Rules(), seed=2)
    client.force_login(owner)
    assert client.get(reverse("games:game", args=[game.pk])).context["score_graph"] is None
    play_to_end_of_hand(game)
    response = client.get(reverse("games:game", args=[game.pk]))
    graph = response.context["score_graph"]
    game.refresh_from_db()
    [row] = graph.rows
    assert (row.ns, row.ew) == (game.scores["NS"], game.scores["EW"])
    assert '<svg id="score-graph"' in response.content.decode()
