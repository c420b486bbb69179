"""Models that talk to a provider through its official SDK (lesson 16, beyond the anchors).

`AnthropicModel(client)` and `OpenAIModel(client)` stand where lab.ScriptedModel stands: each
has a `wire` and a `complete(system, request, tools)` that takes a request already in that
wire's words (what lesson 16's Adapter hands it: to_anthropic(view) or to_openai(view), and
the tools as the wire wants them), sends it with the SDK's client, and turns the response back
into the lab's assistant message: text and toolCall blocks, stop_reason "toolUse" or "stop".

A refusal or an outage is data, not an exception, as in lesson 5: the SDK's APIStatusError
(a 400, a 529) and APIConnectionError come back as a failed reply whose error_message is
"<status> <type>: <the provider's message>", the same shape the scripted model gives. The
client is the caller's: anthropic.Anthropic(base_url=loopback.base_url, api_key="test") for
lab.notebook.loopback.Loopback, or anthropic.Anthropic() for the real API with ANTHROPIC_API_KEY set.
"""

import json

from lab.kit.messages import fail

ANTHROPIC_MODEL = "claude-haiku-4-5"
OPENAI_MODEL = "gpt-4o-mini"


class AnthropicModel:
    """A model on Anthropic's Messages API, through anthropic.Anthropic: see the module."""

    wire = "anthropic"

    def __init__(self, client, model=ANTHROPIC_MODEL, max_tokens=1024):
        self.client, self.model, self.max_tokens = client, model, max_tokens

    def complete(self, system, request, tools):
        import anthropic

        extra = {"tools": tools} if tools else {}
        try:
            response = self.client.messages.create(model=self.model, max_tokens=self.max_tokens,
                                                   system=system, messages=request, **extra)
        except anthropic.APIStatusError as error:
            return fail(_refusal(error.status_code, error.body))
        except anthropic.APIConnectionError as error:
            return fail(f"connection error: {error}")
        content = []
        for block in response.content:
            if block.type == "text":
                content.append({"type": "text", "text": block.text})
            elif block.type == "tool_use":
                content.append({"type": "toolCall", "id": block.id, "name": block.name,
                                "arguments": dict(block.input)})
        return _message(content)


class OpenAIModel:
    """A model on OpenAI's Chat Completions, through openai.OpenAI: see the module."""

    wire = "openai"

    def __init__(self, client, model=OPENAI_MODEL):
        self.client, self.model = client, model

    def complete(self, system, request, tools):
        import openai

        extra = {"tools": tools} if tools else {}
        try:
            response = self.client.chat.completions.create(
                model=self.model, messages=[{"role": "system", "content": system}, *request],
                **extra)
        except openai.APIStatusError as error:
            return fail(_refusal(error.status_code, error.body))
        except openai.APIConnectionError as error:
            return fail(f"connection error: {error}")
        said = response.choices[0].message
        content = [{"type": "text", "text": said.content}] if said.content else []
        for call in said.tool_calls or []:
            try:
                arguments = json.loads(call.function.arguments or "{}")
            except ValueError:  # the model's JSON, cut off or malformed: keep what it sent
                arguments = {"(not JSON)": call.function.arguments}
            content.append({"type": "toolCall", "id": call.id, "name": call.function.name,
                            "arguments": arguments})
        return _message(content)


def _message(content):
    calls = any(block["type"] == "toolCall" for block in content)
    return {"role": "assistant", "content": content, "stop_reason": "toolUse" if calls else "stop"}


def _refusal(status, body):
    """'400 invalid_request_error: <message>' from an error body of either provider (the
    SDKs hand Anthropic's whole body and OpenAI's inner "error" object)."""
    error = body.get("error", body) if isinstance(body, dict) else {}
    if not isinstance(error, dict):
        error = {"message": str(error)}
    return f"{status} {error.get('type', 'error')}: {error.get('message', body)}"
