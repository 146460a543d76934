"""Comments on the decisions of a hand: by its owner and their teachers, shown on the
replay page at their step, notified, and exported with the EGN."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from classes.models import Classroom
from games.engine.egn import read_egn
from games.models import COMMENT_LENGTH, Hand, HandComment
from notifications.models import Notification
from tests.conftest import make_user, upload_hand

pytestmark = pytest.mark.django_db

# SPEC_RECORD: steps 0-4 are the five calls (N, E, S, W pass; N names hearts), steps
# 5-12 the eight cards played.


@pytest.fixture
def hand(owner: User, classroom: Classroom) -> Hand:
    return upload_hand(owner, title="Club night 3")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def comment(client: Client, hand: Hand, step: object, text: str, **headers: str) -> object:
    url = reverse("games:hand_comment", args=[hand.pk])
    return client.post(url, {"step": step, "text": text}, **headers)


def page(client: Client, hand: Hand, step: int, **query: str) -> str:
    url = reverse("games:hand_review", args=[hand.pk])
    response = client.get(url, {"step": step, **query})
    assert response.status_code == 200
    return response.content.decode()


def test_the_teachers_of_a_student_are_those_of_their_classes(
    teacher: User, owner: User, classmate: User, classroom: Classroom
) -> None:
    other = make_user("other", teacher=True)
    assert list(User.objects.teachers_of(owner)) == [teacher]
    assert list(User.objects.teachers_of(classmate)) == [teacher]
    assert list(User.objects.teachers_of(teacher)) == []
    assert other not in User.objects.teachers_of(owner)
    classroom.remove_student(owner)
    assert list(User.objects.teachers_of(owner)) == []


def test_a_teacher_comments_and_the_student_is_told(teacher: User, owner: User, hand: Hand) -> None:
    response = comment(signed_in(teacher), hand, 5, "Why lead the right bower here?")
    assert response.status_code == 302
    assert response["Location"] == f"/hands/{hand.pk}/?step=5#comments"
    [saved] = HandComment.objects.all()
    assert (saved.author, saved.step, saved.text) == (teacher, 5, "Why lead the right bower here?")
    [note] = Notification.objects.all()
    assert note.recipient == owner and not note.read
    assert note.url == f"/hands/{hand.pk}/?step=5#comments"
    assert note.text.startswith("tess commented on your hand “Club night 3”, step 5:")


def test_the_comment_shows_at_its_step_escaped_and_marks_the_move_list(
    teacher: User, owner: User, hand: Hand
) -> None:
    HandComment.objects.create(hand=hand, author=teacher, step=5, text="<b>Look</b> & think")
    stepped = signed_in(owner).get(f"/hands/{hand.pk}/?step=4", HTTP_HX_REQUEST="true")
    assert '<span id="move-comments-5" class="move__comments"' in stepped.content.decode()
    assert stepped.content.decode().count("hx-swap-oob") == 1  # the announcement only
    shown = page(signed_in(owner), hand, 5)
    assert "&lt;b&gt;Look&lt;/b&gt; &amp; think" in shown
    assert "<b>Look</b>" not in shown
    assert "tess" in shown and "(teacher)" in shown
    assert "1 comment." in shown  # the move list's label for step 5
    elsewhere = page(signed_in(owner), hand, 6)
    assert "Look" not in elsewhere
    assert "No comment on this decision yet." in elsewhere


def test_an_author_deletes_their_own_comment_and_nobody_else_can(
    teacher: User, owner: User, hand: Hand
) -> None:
    mine = HandComment.objects.create(hand=hand, author=teacher, step=5, text="Lead low")
    theirs = HandComment.objects.create(hand=hand, author=owner, step=5, text="Why?")
    shown = page(signed_in(teacher), hand, 5)
    delete = reverse("games:hand_comment_delete", args=[hand.pk, mine.pk])
    assert f'action="{delete}"' in shown  # offered on one's own comment only
    assert reverse("games:hand_comment_delete", args=[hand.pk, theirs.pk]) not in shown
    # Someone else's comment, or one on another hand, is not found.
    refused = signed_in(owner).post(delete)
    assert refused.status_code == 404 and HandComment.objects.filter(pk=mine.pk).exists()
    other_hand = upload_hand(teacher, title="Another")  # the teacher may comment there too
    wrong_hand = reverse("games:hand_comment_delete", args=[other_hand.pk, mine.pk])
    assert signed_in(teacher).post(wrong_hand).status_code == 404
    assert signed_in(teacher).get(delete).status_code == 405  # POST only
    # Without JavaScript: back to the step, with a message.
    response = signed_in(teacher).post(delete)
    assert response["Location"] == f"/hands/{hand.pk}/?step=5#comments"
    assert list(HandComment.objects.all()) == [theirs]


def test_deleting_a_comment_with_htmx_returns_the_steps_comments_and_badge(
    teacher: User, hand: Hand
) -> None:
    mine = HandComment.objects.create(hand=hand, author=teacher, step=5, text="Lead low")
    delete = reverse("games:hand_comment_delete", args=[hand.pk, mine.pk])
    html = signed_in(teacher).post(delete, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="comments"' in html and "No comment on this decision yet." in html
    assert '<span id="move-comments-5" aria-hidden="true" hx-swap-oob="true">' in html


def edit(client: Client, hand: Hand, remark: HandComment, text: str, **headers: str) -> object:
    url = reverse("games:hand_comment_edit", args=[hand.pk, remark.pk])
    return client.post(url, {"text": text}, **headers)


def test_an_author_edits_their_own_comment_and_nobody_else_can(
    teacher: User, owner: User, hand: Hand
) -> None:
    mine = HandComment.objects.create(hand=hand, author=teacher, step=5, text="Lead low")
    theirs = HandComment.objects.create(hand=hand, author=owner, step=5, text="Why?")
    shown = page(signed_in(teacher), hand, 5)
    url = reverse("games:hand_comment_edit", args=[hand.pk, mine.pk])
    assert f'action="{url}"' in shown and "Edit my comment" in shown
    assert reverse("games:hand_comment_edit", args=[hand.pk, theirs.pk]) not in shown
    # Someone else's comment, or one on another hand, is not found; GET is not allowed.
    assert edit(signed_in(owner), hand, mine, "Mine now").status_code == 404
    other_hand = upload_hand(teacher, title="Another")
    wrong = reverse("games:hand_comment_edit", args=[other_hand.pk, mine.pk])
    assert signed_in(teacher).post(wrong, {"text": "Moved"}).status_code == 404
    assert signed_in(teacher).get(url).status_code == 405
    mine.refresh_from_db()
    assert mine.text == "Lead low" and mine.edited is None
    # Without JavaScript: back to the step, with a message; the comment is marked edited.
    client = signed_in(teacher)
    response = edit(client, hand, mine, "  Lead the nine of clubs.  ")
    assert response["Location"] == f"/hands/{hand.pk}/?step=5#comments"
    mine.refresh_from_db()
    assert mine.text == "Lead the nine of clubs." and mine.edited is not None
    followed = client.get(response["Location"]).content.decode()
    assert "Comment changed." in followed and '· <span title="Edited' in followed
    assert Notification.objects.filter(recipient=owner).count() == 0  # no new notice


def test_an_edit_with_htmx_returns_the_steps_comments_and_a_refused_text_keeps_the_old(
    teacher: User, hand: Hand
) -> None:
    mine = HandComment.objects.create(hand=hand, author=teacher, step=5, text="Lead low")
    body = edit(signed_in(teacher), hand, mine, "Lead high", HTTP_HX_REQUEST="true")
    html = body.content.decode()  # type: ignore[attr-defined]
    assert html.lstrip().startswith('<div id="comments"')
    assert "Lead high" in html and "Comment changed." in html
    refused = edit(
        signed_in(teacher), hand, mine, "x" * (COMMENT_LENGTH + 1), HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 200  # type: ignore[attr-defined]
    html = refused.content.decode()  # type: ignore[attr-defined]
    assert f"at most {COMMENT_LENGTH} characters" in html and 'role="alert"' in html
    assert '<details class="comment-item__edit" open>' in html  # the form stays open
    mine.refresh_from_db()
    assert mine.text == "Lead high"
    client = signed_in(teacher)
    blank = edit(client, hand, mine, "   ")
    followed = client.get(blank["Location"]).content.decode()  # type: ignore[index]
    assert "Your comment was not changed: Write a comment first." in followed
    mine.refresh_from_db()
    assert mine.text == "Lead high"


def test_an_edited_comment_goes_out_with_the_egn_export(
    teacher: User, owner: User, hand: Hand
) -> None:
    mine = HandComment.objects.create(hand=hand, author=teacher, step=5, text="Lead low")
    edit(signed_in(teacher), hand, mine, "Lead the nine")
    egn = signed_in(owner).get(reverse("games:hand_export", args=[hand.pk, "egn"]))
    text = egn.content.decode()
    assert "Lead the nine" in text and "Lead low" not in text


def test_a_students_reply_tells_the_teachers_who_commented(
    teacher: User, owner: User, classroom: Classroom, hand: Hand
) -> None:
    silent = make_user("silent", teacher=True)
    Classroom.objects.create(teacher=silent, name="Chess club").add_student(owner)
    comment(signed_in(teacher), hand, 5, "Why?")
    response = comment(signed_in(owner), hand, 5, "I wanted to draw trump.")
    assert response.status_code == 302
    told = Notification.objects.filter(text__startswith="alice answered")
    assert [n.recipient for n in told] == [teacher]
    assert not Notification.objects.filter(recipient=silent).exists()


def test_the_owner_may_comment_on_their_own_hand_without_a_class(db: None) -> None:
    owner = make_user("solo")
    own = upload_hand(owner)
    response = comment(signed_in(owner), own, 0, "Should I have ordered up?")
    assert response.status_code == 302
    assert HandComment.objects.get().author == owner
    assert not Notification.objects.exists()  # nobody to tell


@pytest.mark.parametrize(
    ("step", "text", "message"),
    [
        ("", "Hi", "The page sent no decision to comment on: reload it"),
        ("x", "Hi", "The page sent no decision to comment on: reload it"),
        (-1, "Hi", "The page sent no decision to comment on: reload it"),
        (13, "Hi", "This hand&#x27;s decisions are steps 0 to 12, not 13."),
        (2, "   ", "Write a comment first."),
        (2, "x" * (COMMENT_LENGTH + 1), f"at most {COMMENT_LENGTH} characters"),
    ],
)
def test_a_bad_comment_is_refused_with_a_message_in_place(
    teacher: User, hand: Hand, step: object, text: str, message: str
) -> None:
    response = comment(signed_in(teacher), hand, step, text, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # htmx swaps the fragment with the message
    body = response.content.decode()
    assert message in body
    assert 'role="alert"' in body
    assert not HandComment.objects.exists()


def test_a_bad_comment_without_javascript_comes_back_with_a_message(
    teacher: User, hand: Hand
) -> None:
    client = signed_in(teacher)
    response = comment(client, hand, 99, "Hi")
    assert response.status_code == 302
    followed = client.get(response["Location"]).content.decode()
    assert "Your comment was not posted: This hand&#x27;s decisions are steps 0 to 12" in followed


def test_the_htmx_post_returns_the_steps_comments_with_the_new_one(
    teacher: User, hand: Hand
) -> None:
    HandComment.objects.create(hand=hand, author=teacher, step=3, text="Earlier")
    HandComment.objects.create(hand=hand, author=teacher, step=4, text="Elsewhere")
    response = comment(signed_in(teacher), hand, 3, "And now", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="comments"')
    assert body.index("Earlier") < body.index("And now")
    assert "Elsewhere" not in body
    assert "Comment posted." in body
    assert '<span id="move-comments-3" class="move__comments" title="2 comments"' in body
    assert 'hx-swap-oob="true">2</span>' in body


def test_comments_need_the_csrf_token(teacher: User, hand: Hand) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(teacher)
    assert comment(client, hand, 1, "Hi").status_code == 403


def test_a_share_link_shows_the_hand_but_not_its_comments(
    teacher: User, owner: User, hand: Hand
) -> None:
    HandComment.objects.create(hand=hand, author=teacher, step=5, text="Private note")
    token = hand.share()
    outsider = make_user("outsider")
    shown = page(signed_in(outsider), hand, 5, share=token)
    assert "Private note" not in shown
    assert "Add a comment" not in shown
    url = reverse("games:hand_comment", args=[hand.pk]) + f"?share={token}"
    assert signed_in(outsider).post(url, {"step": 5, "text": "Hi"}).status_code == 404
    remark = HandComment.objects.get()
    for action in ("hand_comment_edit", "hand_comment_delete"):
        url = reverse(f"games:{action}", args=[hand.pk, remark.pk]) + f"?share={token}"
        assert signed_in(outsider).post(url, {"text": "Mine"}).status_code == 404
    assert HandComment.objects.get().text == "Private note"
    egn = Client().get(reverse("games:hand_export", args=[hand.pk, "egn"]), {"share": token})
    assert "Private note" not in egn.content.decode()


def test_a_students_hand_is_in_the_teachers_classes_section_not_my_hands(
    teacher: User, owner: User, hand: Hand
) -> None:
    as_teacher = page(signed_in(teacher), hand, 0)
    assert '<a href="/classes/" aria-current="location">Classes</a>' in as_teacher
    assert '<a href="/hands/">My hands</a>' in as_teacher
    as_owner = page(signed_in(owner), hand, 0)
    assert '<a href="/hands/" aria-current="location">My hands</a>' in as_owner
    assert '<a href="/classes/">Classes</a>' in as_owner


def test_the_teacher_sees_the_hand_read_only(teacher: User, hand: Hand) -> None:
    shown = page(signed_in(teacher), hand, 0)
    assert "a hand of your student alice, who sat South · read only; you may comment" in shown
    assert "Share a read-only link" not in shown
    assert "Add a comment on this decision" in shown


def test_a_student_taken_out_of_the_class_is_out_of_the_teachers_sight(
    teacher: User, owner: User, classroom: Classroom, hand: Hand
) -> None:
    classroom.remove_student(owner)
    client = signed_in(teacher)
    assert client.get(reverse("games:hand_review", args=[hand.pk])).status_code == 404
    assert comment(client, hand, 1, "Hi").status_code == 404


def test_the_egn_export_carries_the_comments_on_their_call_or_card(
    teacher: User, owner: User, hand: Hand
) -> None:
    HandComment.objects.create(hand=hand, author=teacher, step=1, text="Pass? With two aces?")
    HandComment.objects.create(hand=hand, author=owner, step=6, text="I had no trump left")
    for viewer in (owner, teacher):
        response = signed_in(viewer).get(reverse("games:hand_export", args=[hand.pk, "egn"]))
        assert response.status_code == 200
        data = json.loads(response.content)
        bidding, play = data["deals"][0]["phases"]
        assert bidding["callAnnotations"] == {"1": ["Comment by tess: Pass? With two aces?"]}
        assert play["playAnnotations"] == {"1": ["Comment by alice: I had no trump left"]}
        notes = read_egn(response.content).deals[0].annotations
        assert [(a.kind, a.index) for a in notes] == [("call", 1), ("play", 1)]


def test_the_match_export_carries_the_comments_too(teacher: User, owner: User) -> None:
    from tests.games.test_export import uploaded_match

    match = uploaded_match(owner)
    second = match.hands.order_by("number_in_match")[1]
    HandComment.objects.create(hand=second, author=teacher, step=0, text="First call")
    response = signed_in(owner).get(reverse("games:match_export", args=[match.pk]))
    deals = read_egn(response.content).deals
    assert [[a.text for a in deal.annotations] for deal in deals[:2]] == [
        [],
        ["Comment by tess: First call"],
    ]
