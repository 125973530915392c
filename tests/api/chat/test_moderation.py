"""Reports of messages, and the moderators' queue in the admin: hiding a message, and
suspending a sender's chat."""

from __future__ import annotations

from django.test import Client

from chat.models import ChatReport, ChatSuspension, Message

from .conftest import listed, say


def _report(client, message_id: int, **body):
    return client.post(
        f"/api/v1/chat/messages/{message_id}/report", {"reason": "abuse", **body}, format="json"
    )


def test_a_reader_reports_a_message_once(people, table):
    [(alice, a), (bob, b), (_, c)] = people("alice", "bob", "carol")
    game = table("active", alice, bob)
    said = say(b, game, text="rude words").json()

    made = _report(a, said["id"], note="  Insults.  ")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["message"], body["reason"], body["note"]) == (said["id"], "abuse", "Insults.")
    again = _report(a, said["id"], reason="spam")
    assert again.status_code == 409 and again.json()["code"] == "CHAT_ALREADY_REPORTED"
    assert ChatReport.objects.count() == 1

    # Someone who may not read the room (a spectator, while the game runs) finds nothing.
    hidden = _report(c, said["id"])
    assert hidden.status_code == 404 and hidden.json()["code"] == "CHAT_MESSAGE_NOT_FOUND"
    assert _report(a, 999999).json()["code"] == "CHAT_MESSAGE_NOT_FOUND"


def test_the_reason_is_one_of_the_list_and_the_note_is_bounded(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)
    said = say(b, game, text="hm").json()
    for reason in ("spam", "abuse", "cheating", "other"):
        ChatReport.objects.all().delete()
        assert _report(a, said["id"], reason=reason).status_code == 201
    ChatReport.objects.all().delete()
    wrong = _report(a, said["id"], reason="rude")
    assert wrong.status_code == 400
    assert [(e["field"], e["code"]) for e in wrong.json()["errors"]] == [
        ("reason", "INVALID_CHOICE")
    ]
    long = _report(a, said["id"], note="n" * 501)
    assert [(e["field"], e["code"]) for e in long.json()["errors"]] == [("note", "MAX_LENGTH")]
    assert _report(a, said["id"], note="n" * 500).status_code == 201


def _staff(make_user) -> Client:
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(moderator)
    return client


def _act(staff: Client, action: str, *reports: ChatReport):
    return staff.post(
        "/admin/chat/chatreport/",
        {"action": action, "_selected_action": [r.pk for r in reports]},
        follow=True,
    )


def test_the_queue_lists_open_reports_and_hides_a_message(people, table, make_user):
    [(alice, a), (bob, b), (_, c)] = people("alice", "bob", "carol")
    game = table("finished", alice, bob)
    rude = say(b, game, text="rude words").json()
    fine = say(b, game, text="fine words").json()
    report = ChatReport.objects.get(pk=_report(a, rude["id"]).json()["id"])
    _report(c, fine["id"])
    staff = _staff(make_user)

    queue = staff.get("/admin/chat/chatreport/", {"state": "open"})
    assert queue.status_code == 200
    assert b"rude words" in queue.content and b"fine words" in queue.content

    done = _act(staff, "hide_message", report)
    assert done.status_code == 200 and b"1 message hidden." in done.content
    assert Message.objects.get(pk=rude["id"]).hidden
    report.refresh_from_db()
    assert report.resolved_at is not None
    assert b"rude words" not in staff.get("/admin/chat/chatreport/", {"state": "open"}).content
    for client in (a, b, c):
        assert [m["text"] for m in listed(client, game)] == ["fine words"]


def test_a_suspended_sender_may_not_post(people, table, make_user):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)
    rude = say(b, game, text="rude words").json()
    report = ChatReport.objects.get(pk=_report(a, rude["id"]).json()["id"])

    done = _act(_staff(make_user), "suspend_sender", report)
    assert done.status_code == 200 and b"1 player suspended." in done.content
    assert ChatSuspension.objects.filter(user=bob, until__isnull=True).exists()
    refused = say(b, game, text="more")
    assert refused.status_code == 403 and refused.json()["code"] == "CHAT_SUSPENDED"
    assert say(a, game, text="quiet now").status_code == 201

    ChatSuspension.objects.filter(user=bob).delete()  # lifted
    assert say(b, game, text="sorry").status_code == 201


def test_the_admin_is_for_staff_only(people):
    [(alice, _)] = people("alice")
    client = Client()
    client.force_login(alice)
    answer = client.get("/admin/chat/chatreport/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
