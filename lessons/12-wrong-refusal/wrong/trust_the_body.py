"""Takes the body to be what the documentation shows, and indexes straight into it. A 413 that
Cloudflare answered with a page of HTML, a 529 with no body, an error that is a string: each
raises in the middle of a run, where the harness should have retried or given up.

Fails: test_a_response_no_provider_should_send_is_read_without_raising
"""

_finished_classify = classify


def classify(reply):
    response = reply.get("response")
    if isinstance(response, dict) and type(response.get("status")) is int:
        response["body"]["error"].get("type")  # the documented shape, taken on trust
    return _finished_classify(reply)
