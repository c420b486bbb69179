"""A provider on the loopback interface: one wire's real HTTP API, answered from a script.

`Loopback(wire, script)` serves Anthropic's Messages API (POST /v1/messages) or OpenAI's Chat
Completions (POST /v1/chat/completions) on 127.0.0.1, at a port the system picks, so the
official `anthropic` and `openai` clients can talk to it as they talk to the real thing
(point them at `.base_url`). Every request body is kept in `.requests`, and its messages are
checked with lab.validate(..., wire=...): a request the provider would refuse gets the
provider's 400 and error body, in its words, and uses up no reply. Otherwise the next entry of
the script, a lab assistant message (lab.say, lab.reply), comes back as the provider's own
response JSON, its calls given provider-style ids (toolu_..., call_...) when they have none.

It is bounded and stops by itself: it answers at most `max_requests` requests, waits at most
`idle` seconds for the next one, and refuses a body over a megabyte. Use it as a context
manager; leaving the block stops it at once. Nothing here reaches beyond 127.0.0.1.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

from lab.kit.counting import counted
from lab.kit.wire import WIRES, validate_wire

PATHS = {"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}
MAX_BODY = 1 << 20
TICK = 0.1  # seconds between looks at whether to stop


class Loopback:
    """Loopback(wire, script, max_requests=50, idle=30.0): see the module's docstring."""

    def __init__(self, wire, script, max_requests=50, idle=30.0):
        if wire not in WIRES:
            raise ValueError(f"wire={wire!r}: name one of {', '.join(map(repr, WIRES))}")
        self.wire, self.requests, self.refused = wire, [], []
        self._script, self._next, self._ids = list(script), 0, 0
        self._left, self._lock = max_requests, threading.Lock()
        self._server = HTTPServer(("127.0.0.1", 0), _handler(self))
        host, port = self._server.socket.getsockname()[:2]  # bound now, so read once: a cell
        self._origin = f"http://{host}:{port}"                # may ask after stop() closed it
        self._server.timeout, self._idle, self._got = TICK, idle, False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"loopback-{wire}", daemon=True)

    @property
    def base_url(self):
        """What to give the SDK's client as base_url (OpenAI's includes the /v1 its paths
        leave out)."""
        return self._origin + ("/v1" if self.wire == "openai" else "")

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        """Stop serving and close the socket; safe to call more than once."""
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._server.server_close()

    def _serve(self):
        """Answer requests until `max_requests` are answered, `idle` seconds pass with none,
        or stop() is called: it looks up every TICK seconds, so stopping is quick."""
        waited = 0.0
        while self._left > 0 and waited < self._idle and not self._stopped.is_set():
            self._got = False
            self._server.handle_request()
            if self._got:
                self._left, waited = self._left - 1, 0.0
            else:
                waited += TICK

    def answer(self, path, body):
        """(status, JSON) for one request: the provider's refusal, or the script's next reply."""
        if path != PATHS[self.wire]:
            return 404, _error(self.wire, "not_found_error", f"no route {path}; this loopback "
                               f"speaks {self.wire}: POST {PATHS[self.wire]}")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return 400, _error(self.wire, "invalid_request_error", "messages: Field required")
        with self._lock:
            self.requests.append(body)
            problems = validate_wire(body["messages"], self.wire)
            if problems:
                self.refused.append(problems[0])
                return 400, _error(self.wire, "invalid_request_error", problems[0].error)
            if self._next >= len(self._script):
                return 500, _error(self.wire, "api_error", (
                    f"the loopback's script ran out: it holds "
                    f"{counted(len(self._script), 'reply', 'replies')} and "
                    f"this is request {len(self.requests)}"))
            reply = self._script[self._next]
            self._next += 1
            return 200, (_anthropic_response if self.wire == "anthropic" else _openai_response)(
                reply, body.get("model", ""), self._new_id)

    def _new_id(self):
        self._ids += 1
        return f"toolu_{self._ids:04d}" if self.wire == "anthropic" else f"call_{self._ids:04d}"


def _handler(loopback):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            loopback._got = True
            size = int(self.headers.get("Content-Length") or 0)
            if size > MAX_BODY:
                return self._send(413, _error(loopback.wire, "request_too_large",
                                              f"a body of {counted(size, 'byte')}; the loopback "
                                              f"takes "
                                              f"{MAX_BODY}"))
            try:
                body = json.loads(self.rfile.read(size) or b"null")
            except ValueError:
                return self._send(400, _error(loopback.wire, "invalid_request_error",
                                              "the body is not JSON"))
            self._send(*loopback.answer(self.path, body))

        def do_GET(self):
            loopback._got = True
            self._send(404, _error(loopback.wire, "not_found_error", "POST only"))

        def _send(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):  # a test's output is not the place for access logs
            pass

    return Handler


def _error(wire, kind, message):
    """The error body each API sends with a 4xx or 5xx."""
    if wire == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _parts(reply, new_id):
    """A lab assistant message's words and its calls (each with an id)."""
    said = "".join(b["text"] for b in reply["content"] if b["type"] == "text")
    calls = [dict(b, id=b.get("id") or new_id()) for b in reply["content"]
             if b["type"] == "toolCall"]
    return said, calls


def _anthropic_response(reply, model, new_id):
    said, calls = _parts(reply, new_id)
    content = ([{"type": "text", "text": said}] if said else []) + [
        {"type": "tool_use", "id": c["id"], "name": c["name"], "input": c["arguments"]}
        for c in calls]
    return {"id": f"msg_loopback_{new_id()}", "type": "message", "role": "assistant",
            "model": model, "content": content,
            "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 0}}


def _openai_response(reply, model, new_id):
    said, calls = _parts(reply, new_id)
    asked = [{"id": c["id"], "type": "function",
              "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
             for c in calls]
    message = {"role": "assistant", "content": said or None,
               **({"tool_calls": asked} if asked else {})}  # Chat Completions: no empty list
    return {"id": f"chatcmpl-{new_id()}", "object": "chat.completion", "created": 0,
            "model": model, "choices": [{"index": 0, "message": message, "logprobs": None,
                                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
