"""My hands: filters, search, pagination and each hand's live review status."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from analysis.models import AnalysisJob
from games.engine.cards import Team
from games.models import Hand, Match
from tests.conftest import MARCH, SPEC_RECORD, Sent, played_record, upload_hand

from .library_helpers import decision, finish_review

pytestmark = pytest.mark.django_db

URL = reverse("games:my_hands")

EUCHRED = {
    "dealer": "W",
    "hands": {
        "N": ["9H", "TH", "9C", "TC", "QC"],
        "E": ["JH", "JD", "AH", "KH", "QH"],
        "S": ["AS", "KS", "QS", "JS", "TS"],
        "W": ["AD", "KD", "QD", "TD", "9D"],
    },
    "upcard": "9S",
    "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
    "play": "9H JH AS AD JD KS KD TH AH QS QD 9C KH JS TD TC QH TS 9D QC",
}
"""North names hearts holding the two lowest; East holds the top five trumps."""


def titles(client: Client, query: str = "") -> list[str]:
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    return [hand.title for hand in response.context["page"]]


def test_the_result_of_each_hand_is_kept_when_it_is_stored(owner: User) -> None:
    march = upload_hand(owner, MARCH)
    euchred = upload_hand(owner, EUCHRED)
    unfinished = upload_hand(owner, SPEC_RECORD)
    assert (march.outcome, march.maker_team) == ("march", "NS")
    assert (euchred.outcome, euchred.maker_team) == ("euchred", "NS")
    assert (unfinished.outcome, unfinished.maker_team) == ("unfinished", "NS")


def test_filters_by_result_and_by_who_made_trump(client: Client, owner: User) -> None:
    upload_hand(owner, MARCH, title="March")
    upload_hand(owner, EUCHRED, title="Euchred", seat="E")
    upload_hand(owner, SPEC_RECORD, title="Unfinished")
    client.force_login(owner)
    assert titles(client, "outcome=march") == ["March"]
    assert titles(client, "outcome=euchred") == ["Euchred"]
    assert titles(client, "makers=us") == ["Unfinished", "March"]
    assert titles(client, "makers=them") == ["Euchred"]
    assert titles(client, "seat=E") == ["Euchred"]


def test_the_has_mistakes_filter_follows_the_review_the_hand_shows(
    client: Client, owner: User
) -> None:
    clean = upload_hand(owner, played_record(1), title="Clean")
    flawed = upload_hand(owner, played_record(2), title="Flawed")
    upload_hand(owner, played_record(3), title="Waiting")
    finish_review(clean, [decision("play"), decision("call", "inaccuracy")])
    finish_review(flawed, [decision("play", "blunder"), decision("play", "mistake")])
    client.force_login(owner)
    assert titles(client, "mistakes=yes") == ["Flawed"]
    assert titles(client, "mistakes=no") == ["Clean"]
    assert titles(client, "mistakes=unreviewed") == ["Waiting"]
    assert Hand.objects.get(pk=flawed.pk).mistakes == 2

    # A new review (a newer solver, say) that marks nothing: the hand keeps its own until
    # its owner switches to the new one, and then the filter follows.
    first = flawed.analysis_jobs.get()
    newer = AnalysisJob.objects.create(
        record=flawed.record,
        record_hash=flawed.record_hash,
        params=first.params,
        params_key=first.params_key,
        solver_version="next",
    )
    finish_review(flawed, [decision("play")])
    assert titles(client, "mistakes=yes") == ["Flawed"]
    newer.refresh_from_db()
    Hand.objects.get(pk=flawed.pk).show_review(newer)
    assert titles(client, "mistakes=yes") == []
    assert titles(client, "mistakes=no") == ["Flawed", "Clean"]


def test_filters_by_rules_date_and_match_and_searches_titles(client: Client, owner: User) -> None:
    old = upload_hand(owner, played_record(1), title="Old club night")
    Hand.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(days=40))
    match = Match.objects.create(owner=owner, title="Finals")
    upload_hand(owner, played_record(2), title="Deal one", match=match, number_in_match=1)
    upload_hand(owner, MARCH, title="Other")
    client.force_login(owner)
    since = (timezone.now() - timedelta(days=7)).date().isoformat()
    assert titles(client, f"date_from={since}") == ["Other", "Deal one"]
    until = (timezone.now() - timedelta(days=30)).date().isoformat()
    assert titles(client, f"date_to={until}") == ["Old club night"]
    assert titles(client, f"match={match.pk}") == ["Deal one"]
    assert titles(client, "q=club") == ["Old club night"]
    assert titles(client, "q=finals") == ["Deal one"], "the match's title is searched too"
    assert titles(client, "rules=standard") == ["Other", "Deal one", "Old club night"]
    assert titles(client, "rules=redeal") == []
    page = client.get(f"{URL}?rules=standard").content.decode()
    assert '<td data-label="Rules">Standard (stick the dealer)</td>' in page, "words, not a name"
    assert '<td data-label="Rules">standard</td>' not in page


def test_a_matchs_hands_are_listed_in_the_order_they_were_dealt(
    client: Client, owner: User
) -> None:
    match = Match.objects.create(owner=owner, title="Finals")
    for number in (2, 0, 1):
        upload_hand(
            owner,
            played_record(10 + number),
            title=f"Deal {number}",
            match=match,
            number_in_match=number,
        )
    client.force_login(owner)
    assert titles(client, f"match={match.pk}") == ["Deal 0", "Deal 1", "Deal 2"]
    assert titles(client, "") == ["Deal 1", "Deal 0", "Deal 2"]  # otherwise newest first


def test_bad_filter_values_are_left_out_and_said_so_never_an_error(
    client: Client, owner: User
) -> None:
    upload_hand(owner, MARCH, title="March")
    client.force_login(owner)
    response = client.get(f"{URL}?outcome=win&date_from=yesterday&match=abc&page=zz")
    assert response.status_code == 200
    assert [h.title for h in response.context["page"]] == ["March"]
    assert "Some filters were not understood" in response.content.decode()


def test_the_filters_are_drawn_once_for_each_query_and_show_what_it_asks(
    client: Client, owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.views import my_hands

    drawn: list[str] = []
    real = my_hands.render_to_string

    def counting(name: str, *args: object, **kwargs: object) -> str:
        drawn.append(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(my_hands, "render_to_string", counting)
    my_hands._filter_forms.items.clear()
    upload_hand(owner, MARCH, title="March")
    client.force_login(owner)
    first = client.get(f"{URL}?q=Mar&seat=S").content.decode()
    again = client.get(f"{URL}?q=Mar&seat=S&page=1").content.decode()  # the page aside
    other = client.get(f"{URL}?seat=E").content.decode()
    bad = client.get(f"{URL}?outcome=win").content.decode()
    assert drawn.count("games/my_hands.html#filters") == 3
    assert 'name="q" value="Mar"' in first and 'name="q" value="Mar"' in again
    assert '<option value="S" selected>' in first and '<option value="E" selected>' in other
    assert 'name="q" value="Mar"' not in other
    assert "Some filters were not understood" in bad and "not understood" not in other


def test_no_hand_matching_says_so_with_a_way_back(client: Client, owner: User) -> None:
    upload_hand(owner, MARCH)
    client.force_login(owner)
    page = client.get(f"{URL}?outcome=euchred").content.decode()
    assert "No hand matches these filters." in page


def test_another_users_match_shows_nothing_of_theirs(
    client: Client, owner: User, stranger: User
) -> None:
    match = Match.objects.create(owner=stranger, title="Bob's finals")
    upload_hand(stranger, MARCH, match=match)
    client.force_login(owner)
    page = client.get(f"{URL}?match={match.pk}").content.decode()
    assert "Bob&#x27;s finals" not in page


def test_pages_keep_the_filters(client: Client, owner: User) -> None:
    for seed in range(27):
        upload_hand(owner, played_record(seed), seat="W")
    client.force_login(owner)
    response = client.get(f"{URL}?seat=W")
    page = response.content.decode()
    assert response.context["page"].paginator.count == 27
    assert 'href="?seat=W&amp;page=2"' in page
    assert len(client.get(f"{URL}?seat=W&page=2").context["page"].object_list) == 2


def test_the_filter_form_works_without_javascript_and_swaps_the_table_with_htmx(
    client: Client, owner: User
) -> None:
    upload_hand(owner, MARCH, title="March")
    client.force_login(owner)
    page = client.get(URL).content.decode()
    assert f'method="get" action="{URL}"' in page
    assert f'hx-get="{URL}" hx-target="#hand-table"' in page and 'hx-push-url="true"' in page
    fragment = client.get(f"{URL}?outcome=march", headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert html.lstrip().startswith('<div id="hand-table">')
    assert "<html" not in html and "March" in html


def test_a_running_review_shows_a_progress_bar_and_polls(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    hand.analysis_jobs.update(status="running", progress_done=3, progress_total=28)
    client.force_login(owner)
    page = client.get(URL).content.decode()
    assert f'<progress id="progress-{hand.pk}" max="28" value="3">' in page
    status_url = reverse("games:hand_status", args=[hand.pk])
    assert f'hx-get="{status_url}" hx-trigger="every 2s"' in page


def test_the_status_fragment_stops_polling_once_the_review_is_done(
    client: Client, owner: User
) -> None:
    hand = upload_hand(owner, MARCH)
    status_url = reverse("games:hand_status", args=[hand.pk])
    client.force_login(owner)
    assert "every 2s" in client.get(status_url).content.decode()
    finish_review(hand, [decision("play", "blunder")])
    html = client.get(status_url).content.decode()
    assert "Reviewed: 1 decision marked, 1 blunder" in html
    assert "hx-trigger" not in html and "<html" not in html


def test_a_failed_review_offers_retry_which_queues_it_again(
    client: Client, owner: User, sent: list[Sent], django_capture_on_commit_callbacks
) -> None:
    hand = upload_hand(owner, MARCH)
    hand.analysis_jobs.update(status="failed", error="the worker died")
    client.force_login(owner)
    page = client.get(URL).content.decode()
    retry = reverse("games:hand_retry_analysis", args=[hand.pk])
    assert "The review failed" in page and "the worker died" in page
    assert f'method="post" action="{retry}"' in page and f'hx-post="{retry}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(retry, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Queued for review" in response.content.decode()
    job = hand.analysis_jobs.order_by("-id").first()
    assert job is not None and job.status == "queued" and sent == [Sent(job.pk, job.queue)]


def test_retry_without_javascript_comes_back_to_my_hands(client: Client, owner: User, sent) -> None:
    hand = upload_hand(owner, MARCH)
    hand.analysis_jobs.update(status="failed")
    client.force_login(owner)
    response = client.post(reverse("games:hand_retry_analysis", args=[hand.pk]))
    assert response["Location"] == f"{URL}#hand-{hand.pk}"
    # The record's one job with these parameters is queued again.
    assert hand.analysis_jobs.get().status == "queued"


def test_retry_is_a_post_for_the_owner_only(client: Client, owner: User, stranger: User) -> None:
    hand = upload_hand(stranger, MARCH)
    hand.analysis_jobs.update(status="failed")
    retry = reverse("games:hand_retry_analysis", args=[hand.pk])
    client.force_login(owner)
    assert client.post(retry).status_code == 404
    assert client.get(reverse("games:hand_status", args=[hand.pk])).status_code == 404
    client.force_login(stranger)
    assert client.get(retry).status_code == 405
    assert hand.analysis_jobs.count() == 1


def test_a_hand_to_another_target_is_filed_under_its_preset(client: Client, owner: User) -> None:
    upload_hand(owner, {**MARCH, "rules": {"target": 5}}, title="Standard to 5")
    upload_hand(owner, {**MARCH, "rules": {"preset": "redeal", "target": 15}}, title="Redeal")
    upload_hand(owner, {**MARCH, "rules": {"target": 5, "no_trump": True}}, title="No-trump to 5")
    kept = dict(Hand.objects.values_list("title", "rules_preset"))
    assert kept == {"Standard to 5": "standard", "Redeal": "redeal", "No-trump to 5": "no-trump"}
    assert Hand.objects.get(title="Redeal").record["rules"] == {"preset": "redeal", "target": 15}
    client.force_login(owner)
    assert titles(client, "rules=standard") == ["Standard to 5"]
    assert titles(client, "rules=redeal") == ["Redeal"]


def test_my_hands_restored_from_history_is_the_whole_page(client, owner) -> None:
    client.force_login(owner)
    fragment = client.get("/hands/", headers={"HX-Request": "true"})
    restored = client.get(
        "/hands/", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )
    assert "<html" not in fragment.content.decode()
    assert "<html" in restored.content.decode()
    for response in (fragment, restored):
        assert "HX-Request" in response["Vary"]
        assert "HX-History-Restore-Request" in response["Vary"]


def test_a_matchs_page_draws_its_score_hand_by_hand(client: Client, owner: User) -> None:
    from xml.etree import ElementTree

    from games.engine.record import parse_record

    match = Match.objects.create(owner=owner, title="Finals")
    hands = [
        upload_hand(owner, played_record(10 + n), title=f"Deal {n}", match=match, number_in_match=n)
        for n in range(3)
    ]
    client.force_login(owner)
    response = client.get(f"{URL}?match={match.pk}")
    graph = response.context["score_graph"]
    assert [r.number for r in graph.rows] == [1, 2, 3]
    ns = ew = 0
    for row, hand in zip(graph.rows, hands, strict=True):
        points = parse_record(hand.record).state.result().points or {}
        ns += points.get(Team.NS, 0)
        ew += points.get(Team.EW, 0)
        assert (row.ns, row.ew) == (ns, ew)
        assert row.url == reverse("games:hand_review", args=[hand.pk])
    html = response.content.decode()
    root = ElementTree.fromstring(graph.svg)
    svg = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{svg}title").text == "The score after each hand"
    assert len(root.findall(f".//{svg}a")) == 2 * len(hands)  # each side's dot of each hand
    assert "The score as a table" in html and "Trump made by" in html
