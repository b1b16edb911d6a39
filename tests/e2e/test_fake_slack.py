"""The fake Slack against the real slack_sdk client and a real Bolt app, over loopback."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

import aiohttp
import pytest
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.errors import SlackApiError
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from tests.e2e.fake_slack import FakeSlack
from tests.e2e.fake_slack.distribution import CLIENT_ID, CLIENT_SECRET
from tests.e2e.fake_slack.server import APP_TOKEN

TOKEN = "xoxb-test"
SECRET = "fake-slack-test-secret"
MEMBER, OUTSIDER = "C1", "C2"
MODAL = {
    "type": "modal",
    "callback_id": "order",
    "private_metadata": "draft-7",
    "title": {"type": "plain_text", "text": "Makale"},
    "blocks": [
        {
            "type": "input",
            "block_id": "title",
            "label": {"type": "plain_text", "text": "Başlık"},
            "element": {"type": "plain_text_input", "action_id": "value"},
        }
    ],
}
BUTTONS = [
    {
        "type": "actions",
        "block_id": "purchase",
        "elements": [
            {
                "type": "button",
                "action_id": "confirm",
                "text": {"type": "plain_text", "text": "Onayla"},
                "value": "d1",
            }
        ],
    }
]


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with FakeSlack.running(bot_token=TOKEN, signing_secret=SECRET) as fake:
        fake.add_channel(MEMBER)
        fake.add_channel(OUTSIDER, member=False)
        yield fake


@pytest.fixture
def offline() -> FakeSlack:
    """A fake that is not served: enough to build and sign requests to the app."""
    return FakeSlack("http://127.0.0.1:9", bot_token=TOKEN, signing_secret=SECRET)


@pytest.fixture
def client(slack: FakeSlack) -> AsyncWebClient:
    return AsyncWebClient(token=TOKEN, base_url=slack.api_url)


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def payload_of(body: bytes) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(parse_qs(body.decode())["payload"][0])
    return decoded


async def slack_error(call: Any) -> SlackApiError:
    with pytest.raises(SlackApiError) as caught:
        await call
    return caught.value


# Web API


async def test_auth_test_names_the_bot_and_records_the_call_without_the_token(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    answer = await client.auth_test()
    assert answer["user_id"] == slack.bot_user_id
    assert answer["team_id"] == "T1"
    assert answer["bot_id"]
    [call] = slack.calls
    assert call.method == "auth.test"
    assert "token" not in call.params
    assert call.response["ok"] is True


async def test_a_wrong_or_missing_token_is_refused(slack: FakeSlack) -> None:
    wrong = AsyncWebClient(token="xoxb-wrong", base_url=slack.api_url)
    assert (await slack_error(wrong.auth_test())).response["error"] == "invalid_auth"
    anonymous = AsyncWebClient(base_url=slack.api_url)
    assert (await slack_error(anonymous.auth_test())).response["error"] == "not_authed"


async def test_posted_replied_updated_and_deleted_messages_read_back_as_now(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    first = await client.chat_postMessage(channel=MEMBER, text="Sipariş", blocks=BUTTONS)
    assert first["channel"] == MEMBER
    assert first["message"]["text"] == "Sipariş"
    reply = await client.chat_postMessage(channel=MEMBER, text="%10", thread_ts=first["ts"])
    await client.chat_update(channel=MEMBER, ts=reply["ts"], text="%50")
    second = await client.chat_postMessage(channel=MEMBER, text="silinecek")
    await client.chat_delete(channel=MEMBER, ts=second["ts"])

    [top] = slack.messages(MEMBER)
    assert (top["ts"], top["text"], top["blocks"]) == (first["ts"], "Sipariş", BUTTONS)
    [threaded] = slack.messages(MEMBER, thread_ts=first["ts"])
    assert threaded["text"] == "%50"
    assert threaded["ts"] == reply["ts"]
    assert float(second["ts"]) > float(reply["ts"]) > float(first["ts"])


async def test_form_encoded_calls_are_decoded_like_json_ones(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    blocks = [section("a")]
    await client.api_call(
        "chat.postMessage", data={"channel": MEMBER, "text": "x", "blocks": json.dumps(blocks)}
    )
    [call] = slack.calls_to("chat.postMessage")
    assert call.params == {"channel": MEMBER, "text": "x", "blocks": blocks}
    assert slack.messages(MEMBER)[0]["blocks"] == blocks


async def test_unknown_messages_and_threads_are_refused(client: AsyncWebClient) -> None:
    update = client.chat_update(channel=MEMBER, ts="1.000001", text="x")
    assert (await slack_error(update)).response["error"] == "message_not_found"
    reply = client.chat_postMessage(channel=MEMBER, text="x", thread_ts="1.000001")
    assert (await slack_error(reply)).response["error"] == "thread_not_found"


async def test_ephemeral_messages_are_kept_per_user(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    answer = await client.chat_postEphemeral(channel=MEMBER, user="U1", text="Bakiyeniz: 5 TL")
    assert answer["message_ts"]
    assert [e["text"] for e in slack.ephemerals("U1")] == ["Bakiyeniz: 5 TL"]
    assert slack.ephemerals("U2") == []
    assert slack.messages(MEMBER) == []


@pytest.mark.parametrize(
    ("channel", "error"), [(OUTSIDER, "not_in_channel"), ("C404", "channel_not_found")]
)
async def test_posting_where_the_bot_cannot_is_refused(
    slack: FakeSlack, client: AsyncWebClient, channel: str, error: str
) -> None:
    for post in (
        client.chat_postMessage(channel=channel, text="x"),
        client.chat_postEphemeral(channel=channel, user="U1", text="x"),
    ):
        assert (await slack_error(post)).response["error"] == error
    assert slack.messages(channel) == []


async def test_an_archived_channel_and_a_user_who_left_are_refused_as_on_slack(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    slack.user_leaves(MEMBER, "U2")
    left = client.chat_postEphemeral(channel=MEMBER, user="U2", text="x")
    assert (await slack_error(left)).response["error"] == "user_not_in_channel"
    assert (await client.chat_postEphemeral(channel=MEMBER, user="U1", text="x"))["ok"]
    slack.archive_channel(MEMBER)
    for post in (
        client.chat_postMessage(channel=MEMBER, text="x"),
        client.chat_postEphemeral(channel=MEMBER, user="U1", text="x"),
    ):
        assert (await slack_error(post)).response["error"] == "is_archived"
    assert slack.messages(MEMBER) == []


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ({"text": "x", "blocks": [section("a" * 3001)]}, "invalid_blocks"),
        ({"text": "x", "blocks": [section("a")] * 51}, "invalid_blocks"),
        ({"text": "x", "blocks": [{"type": "markdown", "text": "a" * 6001}] * 2}, "invalid_blocks"),
        ({"text": "a" * 40_001}, "msg_too_long"),
        ({"markdown_text": "a" * 12_001}, "msg_too_long"),
        ({"markdown_text": "**a**", "text": "a"}, "markdown_text_conflict"),
        pytest.param(
            {"text": ""},
            "no_text",
            marks=pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing"),
        ),
    ],
)
async def test_content_slack_refuses_is_refused(
    slack: FakeSlack, client: AsyncWebClient, content: dict[str, Any], error: str
) -> None:
    refused = await slack_error(client.chat_postMessage(channel=MEMBER, **content))
    assert refused.response["error"] == error
    assert slack.messages(MEMBER) == []


async def test_the_limits_themselves_are_allowed(slack: FakeSlack, client: AsyncWebClient) -> None:
    await client.chat_postMessage(channel=MEMBER, text="a" * 40_000, blocks=[section("a" * 3000)])
    await client.chat_postMessage(channel=MEMBER, text="x", blocks=[section("a")] * 50)
    await client.chat_postMessage(channel=MEMBER, markdown_text="**a**" * 2400)
    assert len(slack.messages(MEMBER)) == 3
    assert slack.messages(MEMBER)[2]["text"] == "**a**" * 2400


async def test_an_invalid_block_says_where(client: AsyncWebClient) -> None:
    refused = await slack_error(
        client.chat_postMessage(
            channel=MEMBER, text="x", blocks=[section("a"), section("b" * 3001)]
        )
    )
    assert refused.response["response_metadata"]["messages"] == [
        "[ERROR] must be less than 3001 characters, got 3001 [json-pointer:/blocks/1/text/text]"
    ]


async def test_a_modal_opens_once_with_a_trigger_the_fake_issued(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    body, _ = slack.slash_command("/yaz", user_id="U1", channel_id=MEMBER)
    trigger_id = parse_qs(body.decode())["trigger_id"][0]

    opened = await client.views_open(trigger_id=trigger_id, view=MODAL)
    again = await slack_error(client.views_open(trigger_id=trigger_id, view=MODAL))
    invented = await slack_error(client.views_open(trigger_id="1.2.3", view=MODAL))

    assert opened["view"]["callback_id"] == "order"
    assert again.response["error"] == "exchanged_trigger_id"
    assert invented.response["error"] == "invalid_trigger_id"
    [shown] = slack.views
    assert shown.user_id == "U1"
    assert shown.view["id"] == opened["view"]["id"]


async def test_an_expired_trigger_is_refused() -> None:
    async with FakeSlack.running(bot_token=TOKEN, signing_secret=SECRET, trigger_ttl=0) as slack:
        client = AsyncWebClient(token=TOKEN, base_url=slack.api_url)
        body, _ = slack.block_action(
            "confirm", "d1", user_id="U1", channel_id=MEMBER, message_ts="1.000001"
        )
        trigger_id = payload_of(body)["trigger_id"]
        expired = await slack_error(client.views_open(trigger_id=trigger_id, view=MODAL))
    assert expired.response["error"] == "expired_trigger_id"
    assert slack.views == []


async def test_a_modal_title_over_24_characters_is_refused(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    body, _ = slack.slash_command(user_id="U1", channel_id=MEMBER)
    view = {**MODAL, "title": {"type": "plain_text", "text": "Makale siparişi ver şimdi"}}
    trigger_id = parse_qs(body.decode())["trigger_id"][0]
    refused = await slack_error(client.views_open(trigger_id=trigger_id, view=view))
    assert refused.response["error"] == "invalid_arguments"


async def test_views_update_replaces_the_view_unless_the_hash_moved_on(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    body, _ = slack.slash_command(user_id="U1", channel_id=MEMBER)
    trigger_id = parse_qs(body.decode())["trigger_id"][0]
    opened = (await client.views_open(trigger_id=trigger_id, view=MODAL))["view"]
    changed = {**MODAL, "blocks": [section("Sipariş alındı")]}

    await client.views_update(view_id=opened["id"], hash=opened["hash"], view=changed)
    stale = await slack_error(
        client.views_update(view_id=opened["id"], hash=opened["hash"], view=MODAL)
    )

    assert stale.response["error"] == "hash_conflict"
    [shown] = slack.views
    assert shown.view["blocks"] == [section("Sipariş alındı")]


async def test_views_publish_sets_the_home_tab(slack: FakeSlack, client: AsyncWebClient) -> None:
    await client.views_publish(user_id="U1", view={"type": "home", "blocks": [section("Hoş")]})
    await client.views_publish(user_id="U1", view={"type": "home", "blocks": [section("geldin")]})
    [home] = slack.views
    assert (home.user_id, home.view["blocks"]) == ("U1", [section("geldin")])


async def test_conversations_open_gives_the_dm_a_user_id_also_posts_to(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    opened = await client.conversations_open(users="U1")
    dm = opened["channel"]["id"]
    assert dm.startswith("D")
    assert (await client.conversations_open(users=["U1"]))["channel"]["id"] == dm
    posted = await client.chat_postMessage(channel="U1", text="Makaleniz hazır")
    assert posted["channel"] == dm == slack.dm_channel("U1")
    assert [m["text"] for m in slack.messages(dm)] == ["Makaleniz hazır"]


async def test_files_upload_v2_stores_the_bytes_where_they_were_shared(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    parent = await client.chat_postMessage(channel=MEMBER, text="Sipariş")
    content = "# Başlık\n\nMetin.\n".encode()
    answer = await client.files_upload_v2(
        channel=MEMBER,
        thread_ts=parent["ts"],
        content=content,
        filename="baslik.md",
        title="Başlık",
        initial_comment="Makalenin tamamı",
    )

    [file] = slack.files
    assert answer["file"]["id"] == file.id
    assert file.content == content
    assert (file.filename, file.title) == ("baslik.md", "Başlık")
    assert (file.channel_id, file.thread_ts) == (MEMBER, parent["ts"])
    assert file.initial_comment == "Makalenin tamamı"
    [shared] = slack.messages(MEMBER, thread_ts=parent["ts"])
    assert shared["text"] == "Makalenin tamamı"
    assert shared["files"][0]["id"] == file.id
    methods = [call.method for call in slack.calls]
    assert methods[-2:] == ["files.getUploadURLExternal", "files.completeUploadExternal"]


async def test_files_cannot_be_shared_where_the_bot_is_not(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    upload = client.files_upload_v2(channel=OUTSIDER, content=b"x", filename="a.md")
    assert (await slack_error(upload)).response["error"] == "not_in_channel"
    assert slack.files == []


async def test_a_rate_limited_call_answers_429_with_retry_after_then_recovers(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    slack.fail_next("chat.postMessage", status=429, retry_after=7)

    limited = await slack_error(client.chat_postMessage(channel=MEMBER, text="x"))
    await client.chat_postMessage(channel=MEMBER, text="y")

    assert limited.response.status_code == 429
    assert limited.response.headers["Retry-After"] == "7"
    assert limited.response["error"] == "ratelimited"
    assert [m["text"] for m in slack.messages(MEMBER)] == ["y"]
    assert [call.status for call in slack.calls_to("chat.postMessage")] == [429, 200]


async def test_a_queued_error_fails_only_that_many_calls_of_that_method(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    slack.fail_next("chat.update", error="cant_update_message", count=2)
    posted = await client.chat_postMessage(channel=MEMBER, text="x")
    for _ in range(2):
        error = await slack_error(client.chat_update(channel=MEMBER, ts=posted["ts"], text="y"))
        assert error.response["error"] == "cant_update_message"
    await client.chat_update(channel=MEMBER, ts=posted["ts"], text="z")
    assert slack.messages(MEMBER)[0]["text"] == "z"


async def test_an_unknown_method_is_answered_like_slack(client: AsyncWebClient) -> None:
    error = await slack_error(client.api_call("chat.scheduleMessage"))
    assert error.response["error"] == "unknown_method"


# Waiting


async def test_wait_for_returns_as_soon_as_a_request_makes_it_true(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    assert not slack.messages(MEMBER)
    waiting = asyncio.create_task(slack.wait_for(lambda: slack.messages(MEMBER), timeout=60))
    started = time.monotonic()
    await client.chat_postMessage(channel=MEMBER, text="geldi")
    [message] = await waiting
    assert message["text"] == "geldi"
    # Long before its timeout, with room for a busy machine's slow request.
    assert time.monotonic() - started < 10


async def test_wait_for_fails_with_the_last_calls_when_never_true(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    await client.auth_test()
    with pytest.raises(AssertionError, match=r"within 0\.05 s; last calls: auth\.test:ok"):
        await slack.wait_for(lambda: slack.files, timeout=0.05)


# Signed requests to the app


def test_every_built_request_passes_slacks_signature_check(offline: FakeSlack) -> None:
    verifier = SignatureVerifier(SECRET)
    built = [
        offline.slash_command("/yaz", "Yapay zekâ", user_id="U1", channel_id=MEMBER),
        offline.block_action("confirm", "d1", user_id="U1", channel_id=MEMBER, message_ts="1.1"),
        offline.view_submission("order", {}, user_id="U1"),
        offline.event({"type": "app_mention", "user": "U1", "channel": MEMBER, "text": "hi"}),
    ]
    for body, headers in built:
        assert verifier.is_valid_request(body, headers)
        assert not verifier.is_valid_request(body + b"&x=1", headers), "a tampered body"
    assert not SignatureVerifier("another-secret").is_valid_request(*built[0])


def test_an_old_timestamp_fails_the_signature_check(offline: FakeSlack) -> None:
    body = b'{"type":"event_callback"}'
    old = offline.sign(body, timestamp=int(time.time()) - 600)
    assert not SignatureVerifier(SECRET).is_valid_request(body, old)


async def test_a_block_action_carries_the_pressed_message_and_button(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    posted = await client.chat_postMessage(channel=MEMBER, text="Sipariş", blocks=BUTTONS)
    body, headers = slack.block_action(
        "confirm", "d1", user_id="U1", channel_id=MEMBER, message_ts=posted["ts"]
    )
    payload = payload_of(body)
    assert headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert payload["type"] == "block_actions"
    [action] = payload["actions"]
    assert (action["action_id"], action["block_id"], action["value"]) == (
        "confirm",
        "purchase",
        "d1",
    )
    assert action["text"]["text"] == "Onayla"
    assert payload["message"]["ts"] == posted["ts"]
    assert payload["container"]["is_ephemeral"] is False
    assert payload["response_url"].startswith(slack.url)


async def test_a_view_submission_is_of_the_view_last_opened(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    body, _ = slack.slash_command(user_id="U1", channel_id=MEMBER)
    trigger_id = parse_qs(body.decode())["trigger_id"][0]
    opened = (await client.views_open(trigger_id=trigger_id, view=MODAL))["view"]
    values = {"title": {"value": {"type": "plain_text_input", "value": "Başlık"}}}

    view = payload_of(slack.view_submission("order", values, user_id="U1")[0])["view"]

    assert view["id"] == opened["id"]
    assert view["private_metadata"] == "draft-7"
    assert view["state"]["values"] == values


def test_events_get_fresh_ids_unless_one_is_given(offline: FakeSlack) -> None:
    event = {"type": "message", "channel_type": "im", "user": "U1", "channel": "D1", "text": "a"}
    first, second, replayed = (
        json.loads(offline.event(event)[0]),
        json.loads(offline.event(event)[0]),
        json.loads(offline.event(event, event_id="Ev1")[0]),
    )
    assert first["type"] == "event_callback"
    assert first["event"] == event
    assert first["event_id"] != second["event_id"]
    assert replayed["event_id"] == "Ev1"
    assert first["authorizations"][0]["user_id"] == offline.bot_user_id


# Response URLs


async def test_response_url_posts_land_where_slack_shows_them(slack: FakeSlack) -> None:
    body, _ = slack.slash_command(user_id="U1", channel_id=OUTSIDER)
    hook = AsyncWebhookClient(parse_qs(body.decode())["response_url"][0])

    await hook.send(text="yalnız size")
    await hook.send(text="herkese", response_type="in_channel")

    assert [e["text"] for e in slack.ephemerals("U1")] == ["yalnız size"]
    assert [m["text"] for m in slack.messages(OUTSIDER)] == ["herkese"]
    assert [(r.user_id, r.channel_id, r.body["text"]) for r in slack.responses] == [
        ("U1", OUTSIDER, "yalnız size"),
        ("U1", OUTSIDER, "herkese"),
    ]


async def test_a_response_url_replaces_or_deletes_the_pressed_message(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    posted = await client.chat_postMessage(channel=MEMBER, text="Sipariş", blocks=BUTTONS)
    pressed = {"user_id": "U1", "channel_id": MEMBER, "message_ts": posted["ts"]}
    replace_url = payload_of(slack.block_action("confirm", "d1", **pressed)[0])["response_url"]
    delete_url = payload_of(slack.block_action("confirm", "d1", **pressed)[0])["response_url"]

    await AsyncWebhookClient(replace_url).send(text="Onaylandı", replace_original=True)
    [replaced] = slack.messages(MEMBER)
    assert (replaced["text"], "blocks" in replaced) == ("Onaylandı", False)
    await AsyncWebhookClient(delete_url).send(delete_original=True)
    assert slack.messages(MEMBER) == []


async def test_a_press_on_an_ephemeral_message_replaces_that_ephemeral(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    shown = await client.chat_postEphemeral(channel=MEMBER, user="U1", text="?", blocks=BUTTONS)
    body, _ = slack.block_action(
        "confirm", "d1", user_id="U1", channel_id=MEMBER, message_ts=shown["message_ts"]
    )
    payload = payload_of(body)
    assert payload["container"]["is_ephemeral"] is True
    assert "message" not in payload

    await AsyncWebhookClient(payload["response_url"]).send(text="Tamam", replace_original=True)

    [ephemeral] = slack.ephemerals("U1")
    assert (ephemeral["ts"], ephemeral["text"]) == (shown["message_ts"], "Tamam")


async def test_a_response_url_takes_five_posts(slack: FakeSlack) -> None:
    body, _ = slack.slash_command(user_id="U1", channel_id=MEMBER)
    hook = AsyncWebhookClient(parse_qs(body.decode())["response_url"][0])
    statuses = [(await hook.send(text=str(n))).status_code for n in range(6)]
    assert statuses == [200] * 5 + [404]
    assert len(slack.responses) == 5


# A real Bolt app


async def test_a_bolt_app_answers_a_command_and_a_button_through_the_fake(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    app = AsyncApp(signing_secret=SECRET, client=client)

    @app.command("/yaz")
    async def order(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        await respond("Başlık?")
        await client.views_open(trigger_id=body["trigger_id"], view=MODAL)

    @app.action("confirm")
    async def confirm(ack: AsyncAck, respond: AsyncRespond) -> None:
        await ack()
        await respond(text="Onaylandı", replace_original=True)

    async def dispatch(signed: tuple[bytes, dict[str, str]]) -> int:
        body, headers = signed
        answer = await app.async_dispatch(
            AsyncBoltRequest(body=body.decode(), headers=dict(headers))
        )
        return answer.status

    assert await dispatch(slack.slash_command("/yaz", user_id="U1", channel_id=MEMBER)) == 200
    await slack.wait_for(lambda: slack.views and slack.ephemerals("U1"))
    assert slack.views[0].view["callback_id"] == "order"
    assert slack.ephemerals("U1")[0]["text"] == "Başlık?"

    posted = await client.chat_postMessage(channel=MEMBER, text="Sipariş", blocks=BUTTONS)
    press = slack.block_action(
        "confirm", "d1", user_id="U1", channel_id=MEMBER, message_ts=posted["ts"]
    )
    assert await dispatch(press) == 200
    await slack.wait_for(lambda: slack.messages(MEMBER)[0]["text"] == "Onaylandı")

    tampered_body, headers = slack.slash_command(user_id="U1", channel_id=MEMBER)
    assert await dispatch((tampered_body.replace(b"U1", b"U2"), headers)) == 401


async def test_socket_mode_opens_with_the_app_token_and_carries_envelopes_and_acks(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    with pytest.raises(SlackApiError, match="invalid_auth"):
        await client.apps_connections_open(app_token=TOKEN)
    opened = await client.apps_connections_open(app_token=APP_TOKEN)
    url = str(opened["url"])
    assert url.startswith("ws://127.0.0.1:")
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        hello = await socket.receive_json()
        assert hello["type"] == "hello"
        command = slack.slash_command("/yaz", "Başlık", user_id="U1", channel_id=MEMBER)
        delivering = asyncio.ensure_future(slack.socket_mode.deliver(*command))
        envelope = await socket.receive_json()
        assert envelope["type"] == "slash_commands"
        assert envelope["accepts_response_payload"] is True
        assert envelope["payload"]["command"] == "/yaz"
        assert envelope["payload"]["text"] == "Başlık"
        await socket.send_json({"envelope_id": envelope["envelope_id"], "payload": {"x": 1}})
        assert await delivering == {"x": 1}
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await session.ws_connect(url)


# Distribution: many workspaces, a token each


async def test_a_code_buys_one_team_token_once_and_a_new_one_revokes_the_old(
    slack: FakeSlack, client: AsyncWebClient
) -> None:
    link = f"https://slack.com/oauth/v2/authorize?client_id={CLIENT_ID}&scope=chat:write&state=s"
    anonymous = AsyncWebClient(base_url=slack.api_url)
    grant = slack.authorize(link, "T2")
    wrong = await slack_error(
        anonymous.oauth_v2_access(client_id=CLIENT_ID, client_secret="nope", code=grant.code)
    )
    first = await anonymous.oauth_v2_access(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=grant.code
    )
    reused = await slack_error(
        anonymous.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=grant.code)
    )
    assert wrong.response["error"] == "bad_client_secret"
    assert reused.response["error"] == "invalid_code"
    assert (first["team"]["id"], first["token_type"]) == ("T2", "bot")
    team_two = AsyncWebClient(token=first["access_token"], base_url=slack.api_url)
    assert (await team_two.auth_test())["team_id"] == "T2"
    assert (await client.auth_test())["team_id"] == slack.team_id

    again = slack.authorize(link, "T2")
    await anonymous.oauth_v2_access(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=again.code
    )
    assert (await slack_error(team_two.auth_test())).response["error"] == "invalid_auth"
    current = AsyncWebClient(token=slack.team("T2").token, base_url=slack.api_url)
    await current.apps_uninstall(client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
    assert (await slack_error(current.auth_test())).response["error"] == "invalid_auth"
    assert slack.team("T2").token is None
    assert (await client.auth_test())["ok"], "another team's token is unaffected"
