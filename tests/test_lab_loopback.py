"""Lesson 16, beyond the anchors: the adapter drives the official SDKs. A harness whose model is
lab.notebook.sdk's AnthropicModel or OpenAIModel, behind the lesson's Adapter, talks through the real
`anthropic` and `openai` clients to lab.notebook.loopback.Loopback, a server on 127.0.0.1 that speaks
each provider's HTTP API, checks every request with the lab's wire validator and answers from
a script. No network beyond the loopback interface."""

import asyncio
import json
import socket
import time
import urllib.error
import urllib.request

import pytest

import lab
from conftest import load_harness
from lab.course import lesson_files as lessons
from lab.notebook.loopback import Loopback
from lab.notebook.sdk import AnthropicModel, OpenAIModel

import anthropic  # the SDKs are in the test extra, which the suite is run with
import openai

LESSON = lessons.lesson(16)
CLIENTS = {"anthropic": (anthropic.Anthropic, AnthropicModel), "openai": (openai.OpenAI, OpenAIModel)}


@pytest.fixture(scope="module")
def harness():
    return load_harness(LESSON.finished, "lesson16_sdk")


def sdk_model(wire, server):
    client_class, model_class = CLIENTS[wire]
    return model_class(client_class(base_url=server.base_url, api_key="loopback", max_retries=0))


def read_tool():
    return {"name": "read", "description": "Read a file.", "execute": lambda a: f"# {a['path']}",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}


def two_reads_then_a_question(harness, wire, keep=None):
    """A session of two prompts, the first answered with two parallel calls, through the SDK."""
    return asyncio.run(_session(harness, wire, keep))


async def _session(harness, wire, keep):
    script = [lab.reply(lab.text("Reading both."), lab.call("read", {"path": "a.py"}),
                        lab.call("read", {"path": "b.py"})),
              lab.say("Both are short."), lab.say("Nothing else.")]
    with Loopback(wire, script) as server:
        h = harness.Harness(harness.Adapter(sdk_model(wire, server), keep=keep),
                            harness.SYSTEM, [read_tool()])
        await lab.drive(h.prompt("Read a.py and b.py."))
        await lab.drive(h.prompt("Anything else?"))
    return h, server


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_a_session_through_the_official_sdk_is_never_refused(harness, wire):
    h, server = two_reads_then_a_question(harness, wire)

    ids = [c["id"] for c in harness.tool_calls(h.messages[1])]
    assert lab.shape(h.messages) == f"U A[{','.join(ids)}] R({ids[0]}) R({ids[1]}) A U A"
    assert ids == (["toolu_0001", "toolu_0002"] if wire == "anthropic" else ["call_0001", "call_0002"])
    assert len(server.requests) == 3 and server.refused == []
    assert [lab.validate(r["messages"], wire=wire) for r in server.requests] == [[], [], []]


def test_anthropic_requests_carry_the_system_field_and_tools_in_anthropics_form(harness):
    h, server = two_reads_then_a_question(harness, "anthropic")

    second = server.requests[1]
    assert second["system"] == harness.SYSTEM
    assert second["tools"] == [{"name": "read", "description": "Read a file.",
                                "input_schema": read_tool()["parameters"]}]
    assert lab.kit.wire.shape(second["messages"], "anthropic") == (
        "user[text] assistant[text,use(toolu_0001),use(toolu_0002)] "
        "user[result(toolu_0001),result(toolu_0002)]")


def test_openai_requests_carry_the_system_prompt_as_the_first_message(harness):
    h, server = two_reads_then_a_question(harness, "openai")

    second = server.requests[1]
    assert second["messages"][0] == {"role": "system", "content": harness.SYSTEM}
    assert second["tools"][0]["type"] == "function"
    assert lab.kit.wire.shape(second["messages"], "openai") == (
        "system user assistant[call_0001,call_0002] tool(call_0001) tool(call_0002)")
    assert json.loads(second["messages"][2]["tool_calls"][0]["function"]["arguments"]) == {
        "path": "a.py"}


@pytest.mark.parametrize("wire, words", [
    ("anthropic", "400 invalid_request_error: messages.1: `tool_use` ids were found without "
                  "`tool_result` blocks immediately after: c1. Each `tool_use` block must have a "
                  "corresponding `tool_result` block in the next message."),
    ("openai", "400 invalid_request_error: An assistant message with 'tool_calls' must be "
               "followed by tool messages responding to each 'tool_call_id'. The following "
               "tool_call_ids did not have response messages: c1")])
def test_a_refusal_comes_back_as_a_failed_reply_in_the_providers_words(harness, wire, words):
    asked = lab.call("read", {"path": "a.py"}, id="c1")
    unanswered = [lab.user("Read a.py."), lab.reply(asked), lab.user("Well?")]

    with Loopback(wire, [lab.say("Fine.")]) as server:
        model = sdk_model(wire, server)
        refused = model.complete(harness.SYSTEM, harness.request_for(wire, unanswered), [])
        answered = model.complete(harness.SYSTEM, harness.request_for(wire, unanswered[:1]), [])

    assert refused == lab.fail(words)
    assert answered == lab.say("Fine."), "a refusal must not use up the script"


def test_trimmed_to_nothing_anthropic_refuses_and_openai_still_has_the_system_prompt(harness):
    nothing = harness.safe_trim([lab.user("Hello?"), lab.say("Hi.")], 0)

    with Loopback("anthropic", [lab.say("Hm?")]) as claude, \
            Loopback("openai", [lab.say("How can I help?")]) as gpt:
        from_claude = sdk_model("anthropic", claude).complete(
            harness.SYSTEM, harness.request_for("anthropic", nothing), [])
        from_gpt = sdk_model("openai", gpt).complete(
            harness.SYSTEM, harness.request_for("openai", nothing), [])

    assert from_claude == lab.fail("400 invalid_request_error: messages: at least one message "
                                   "is required")
    assert from_gpt == lab.say("How can I help?")
    assert gpt.requests[0]["messages"] == [{"role": "system", "content": harness.SYSTEM}]


def post(server, path, body):
    host, port = server._server.server_address[:2]
    request = urllib.request.Request(f"http://{host}:{port}{path}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def announced_but_not_sent(server, size):
    """What the loopback says to a request whose headers announce a body of `size` bytes: it
    answers from the headers alone, before any of the body is read."""
    with socket.create_connection(server._server.server_address[:2], timeout=5) as connection:
        connection.sendall(b"POST /v1/messages HTTP/1.0\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n" % size)
        return connection.recv(200)


def test_the_loopback_answers_only_its_wires_route_and_only_json_it_can_read():
    with Loopback("anthropic", [lab.say("ok")]) as server:
        wrong_route = post(server, "/v1/chat/completions", b'{"messages": []}')
        not_json = post(server, "/v1/messages", b"{")
        too_big = announced_but_not_sent(server, 2 << 20)

    assert server.base_url.startswith("http://127.0.0.1:")
    assert wrong_route[0] == 404 and "POST /v1/messages" in wrong_route[1]["error"]["message"]
    assert not_json == (400, {"type": "error", "error": {"type": "invalid_request_error",
                                                         "message": "the body is not JSON"}})
    assert too_big.startswith(b"HTTP/1.0 413 "), too_big[:80]


def test_the_loopback_stops_by_itself_when_idle_or_when_its_requests_are_used_up():
    idle = Loopback("openai", [], idle=0.3)
    counted = Loopback("openai", [lab.say("one")], max_requests=1)

    with idle, counted:
        post(counted, "/v1/chat/completions", b'{"messages": [{"role": "user", "content": "hi"}]}')
        deadline = time.monotonic() + 5
        while (idle._thread.is_alive() or counted._thread.is_alive()) and time.monotonic() < deadline:
            time.sleep(0.05)

        assert not idle._thread.is_alive(), "an idle loopback should stop by itself"
        assert not counted._thread.is_alive(), "a loopback should stop after max_requests"


def test_the_lab_notes_lesson_16_example_runs_and_prints_what_they_say(capsys, monkeypatch):
    readme = (lessons.PROJECT / "docs" / "labs.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Lesson 16: the adapter"):]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(lessons.PROJECT)

    exec(compile(example, "docs/labs.md (lesson 16)", "exec"), {})

    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "U A · Hello. What shall we work on?", printed
    assert printed[1] == "[{'role': 'user', 'content': [{'type': 'text', 'text': 'Hello!'}]}]"
    assert "prints `U A · Hello. What shall we work on?`" in section
