"""Rules of the API that JSON Schema cannot state, taught to the generator.

Each is also said in the operation's description in the OpenAPI document. A case that broke one
of them would be refused with a 4xx although the document calls it valid; a case that breaks the
schema elsewhere is refused anyway, so these apply whatever the generation mode (schemathesis
checks a "negative" case that came out valid as a valid one).
"""

import datetime
import json
import re
import uuid

import schemathesis

_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$")


def _operation(case) -> tuple[str, str]:
    return case.operation.method.upper(), case.operation.path


def _body(case) -> dict:
    return case.body if isinstance(case.body, dict) else {}


def _fresh_key(value):
    """The key made unique across runs (they share one user), when it is a key at all (a malformed one stays malformed)."""
    return f"{value[:90]}.{uuid.uuid4().hex}" if isinstance(value, str) and _KEY.match(value) else value


@schemathesis.hook
def filter_case(context, case) -> bool:
    if _operation(case) == ("DELETE", "/api/library"):
        # cardId in the query or in the body: at least one of them.
        return (case.query or {}).get("cardId") is not None or _body(case).get("cardId") is not None
    if _operation(case) == ("POST", "/api/immersive-translate"):
        # Item ids unique within the request; item texts together within 12,000 code points.
        items = _body(case).get("items")
        if not isinstance(items, list):
            return True
        items = [item for item in items if isinstance(item, dict)]
        ids = [repr(item.get("id")) for item in items]
        total = sum(len(item["text"]) for item in items if isinstance(item.get("text"), str))
        return len(ids) == len(set(ids)) and total <= 12_000
    if _operation(case) == ("POST", "/api/library/imports"):
        # A list within its body limit (8 MB): a larger one is refused from its size (413), as documented.
        if not isinstance(case.body, (dict, list, str)):
            return True
        return len(json.dumps(case.body, ensure_ascii=False, default=str).encode()) <= 8_000_000
    return True


@schemathesis.hook
def before_call(context, case, kwargs) -> None:
    """Just before sending, because stateful testing fills in linked values after generation."""
    body = _body(case)
    if _operation(case) == ("DELETE", "/api/library"):
        # With both, the same id: the query's, which a link may have set.
        query_id = (case.query or {}).get("cardId")
        if all(isinstance(value, str) and _UUID.match(value) for value in (query_id, body.get("cardId"))):
            body["cardId"] = query_id
    elif _operation(case) == ("POST", "/api/immersive-translate") and "request_id" in body:
        # A request_id names one body: a new body needs a new one (else 422 request_id_reused).
        body["request_id"] = _fresh_key(body["request_id"])
    elif _operation(case) == ("POST", "/api/work") and "idempotency-key" in (case.headers or {}):
        # The same for a work draft's Idempotency-Key.
        case.headers["idempotency-key"] = _fresh_key(case.headers["idempotency-key"])
    elif _operation(case) == ("POST", "/api/library/imports"):
        # An import is idempotent by content and by key: new content (one expression of its own) and a new key each time.
        if isinstance(body.get("expressions"), list):
            body["expressions"].append(f"schemathesis phrase {uuid.uuid4().hex[:12]}")
        if "idempotency-key" in (case.headers or {}):
            case.headers["idempotency-key"] = _fresh_key(case.headers["idempotency-key"])
    elif _operation(case) == ("POST", "/api/library") and isinstance(body.get("context"), str) and isinstance(body.get("text"), str):
        # A context is the sentence the expression was met in: it contains the text, within 500 characters.
        joined = f"{body['context'][:200]} {body['text']}"
        body["context"] = joined if len(joined) <= 500 else body["text"]
    elif _operation(case) == ("POST", "/api/library") and body.get("sourceUrl") is not None:
        # A link back to the moment is where a context was met: without a context it is refused (400), as documented.
        del body["sourceUrl"]
    elif _operation(case) == ("POST", "/api/encounters") and isinstance(body.get("encounters"), list):
        # An encounter happened within the last 7 days, not ahead of the clock.
        now = datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
        for encounter in body["encounters"]:
            if isinstance(encounter, dict) and "metAt" in encounter:
                encounter["metAt"] = now
    elif _operation(case) == ("POST", "/api/replay"):
        if body.get("prompt") == "context":
            # The context prompt is for items that carry a cloze (a card with a sentence): the generated ones have none.
            body["prompt"] = "translation"
        if "answeredAt" in body:
            # An answer's time lies within its session: not before the session began, not ahead of the clock. Now is both.
            body["answeredAt"] = datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
    elif case.operation.path.startswith("/api/progress/") and isinstance((case.query or {}).get("timeZone"), str):
        # A time zone PostgreSQL knows (the page sends the browser's).
        case.query["timeZone"] = "Europe/Paris"
