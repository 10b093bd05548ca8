"""The Agent's outputs and the preview's rules for the mocks of ``testing.py``.

Plain Python without ``pulumi``: the rules of the Agent's field table, the
same data the provider's check applies (kinds, lengths, patterns, ranges,
enums, object members and their relations, list items, a field another
needs), each refused with the provider's own reason, the secret-set
references against the mocked sets, the outputs a create stores, and a page
of mocked log lines. ``MODEL`` is generated from the provider's registry
(scripts/lib/mock-model.mjs).
"""

import hashlib
import json
import re
from datetime import datetime, timezone
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

MODEL: Dict[str, Any] = json.loads(__MODEL_JSON__)

Failure = Tuple[str, str]

_TYPES = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),
    "object": lambda v: isinstance(v, Mapping),
}


_PATTERNS: Dict[str, Any] = {}


def _found(source: str, text: str) -> bool:
    # The model's `$` is the end of the text; Python's also matches before a final newline, \Z does not.
    pattern = _PATTERNS.get(source)
    if pattern is None:
        pattern = _PATTERNS[source] = re.compile(source.replace("$", r"\Z"))
    return pattern.search(text) is not None


def _within(bounds: Mapping[str, Any], n: Any) -> bool:
    return ("min" not in bounds or n >= bounds["min"]) and ("max" not in bounds or n <= bounds["max"])


def _passes(test: Mapping[str, Any], value: Any) -> bool:
    if "is" in test:
        return _TYPES[test["is"]](value)
    if "oneOf" in test:
        return isinstance(value, str) and value in test["oneOf"]
    if "range" in test:
        return _TYPES["number"](value) and _within(test["range"], value)
    if not isinstance(value, str):
        return False
    if "length" in test:
        # Lengths count UTF-16 code units, as JavaScript does.
        return _within(test["length"], len(value.encode("utf-16-le")) // 2)
    if "lacks" in test:
        return not _found(test["lacks"], value)
    if "when" in test and not _found(test["when"], value):
        return True
    if "unless" in test and _found(test["unless"], value):
        return True
    return _found(test["matches"], value)


def _first_failure(tests: Sequence[Mapping[str, Any]], value: Any) -> Optional[str]:
    return next((test["reason"] for test in tests if not _passes(test, value)), None)


def _object_failures(name: str, rules: Mapping[str, Any], value: Any) -> List[Failure]:
    if not isinstance(value, Mapping):
        return [(name, rules["notObject"])]
    members = [m["name"] for m in rules["members"]]
    failures: List[Failure] = [(name, rules["unknownKey"].replace("{key}", key)) for key in value if key not in members]
    failed = set()
    for member in rules["members"]:
        reason = rules["missing"] if member["name"] not in value else _first_failure(member["tests"], value[member["name"]])
        if reason is not None:
            failed.add(member["name"])
            failures.append((f"{name}.{member['name']}", reason))
    for relation in rules["relations"]:
        low, high = relation["member"], relation["atMost"]
        if low not in failed and high not in failed and value[low] > value[high]:
            failures.append((f"{name}.{low}", relation["reason"]))
    return failures


def _list_failures(name: str, rules: Mapping[str, Any], value: Any) -> List[Failure]:
    if not isinstance(value, (list, tuple)):
        return [(name, rules["notList"])]
    failures: List[Failure] = []
    seen = set()
    for index, item in enumerate(value):
        reason = _first_failure(rules["items"], item)
        if reason is None and item in seen:
            reason = rules["duplicate"].replace("{item}", item)
        if reason is not None:
            failures.append((f"{name}[{index}]", reason))
        else:
            seen.add(item)
    return failures


def _field_failures(field: Dict[str, Any], value: Any) -> List[Failure]:
    """The failures of a declared value of the field: its rules, as the field table states them."""
    name, rules = field["name"], field["rules"]
    reason = _first_failure(rules.get("tests", []), value)
    if reason is not None:
        return [(name, reason)]
    failures: List[Failure] = []
    if "object" in rules:
        failures += _object_failures(name, rules["object"], value)
    if "list" in rules:
        failures += _list_failures(name, rules["list"], value)
    return failures


def plain_value(value: Any) -> Any:
    """The value as a provider receives it: the engine's secret and output values as their plain values."""
    engine = MODEL["engine"]
    if isinstance(value, Mapping):
        if value.get(engine["signatureKey"]) in (engine["secret"], engine["output"]):
            return plain_value(value.get("value"))
        return {k: plain_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    return value


def check_agent(given: Mapping[str, Any], secret_sets: Optional[Mapping[str, Sequence[str]]] = None) -> List[Failure]:
    """Every failure of the field table's rules, then of the secret sets the inputs name (when sets are given); a
    failure of an input the program declared secret names the field in its reason, as the preview does, so the
    engine prints no value."""
    news = plain_value(given)
    secret = secret_inputs(given)
    failures = _rule_failures(news)
    if secret_sets is not None and not failures:
        failures += _reference_failures(news, secret_sets)
    return [("", f"{prop} (a secret): {reason}") if re.split(r"[.\[]", prop)[0] in secret else (prop, reason) for prop, reason in failures]


def _rule_failures(news: Mapping[str, Any]) -> List[Failure]:
    fields = {f["name"]: f for f in MODEL["fields"]}
    failures: List[Failure] = []
    for field in MODEL["fields"]:
        if field["required"] and news.get(field["name"]) is None:
            failures.append((field["name"], field["requiredReason"]))
    for key, value in news.items():
        if key.startswith("__") or value is None:
            continue
        if key not in fields:
            failures.append((key, MODEL["unknownFieldReason"]))
            continue
        failures += _field_failures(fields[key], value)
    for field in MODEL["fields"]:
        needs, value = field["rules"].get("needs"), news.get(field["name"])
        if needs is not None and value is not None and value != [] and news.get(needs["field"]) is None:
            failures.append((field["name"], needs["reason"]))
    return failures


def _reference_failures(news: Mapping[str, Any], secret_sets: Mapping[str, Sequence[str]]) -> List[Failure]:
    refs = MODEL["references"]
    failures: List[Failure] = []
    for field in refs["secretSetFields"]:
        name = news.get(field)
        if not isinstance(name, str):
            continue
        if name not in secret_sets:
            failures.append((field, refs["missingSet"].replace("{set}", name)))
            continue
        required = news.get("requiredSecrets")
        if field != "secretSet" or not isinstance(required, (list, tuple)):
            continue
        has = list(secret_sets[name])
        missing = [f for f in required if isinstance(f, str) and f not in has]
        if missing:
            template = refs["lacksOne"] if len(missing) == 1 else refs["lacksMany"]
            reason = template.replace("{set}", name).replace("{missing}", ", ".join(missing))
            failures.append((field, reason.replace("{has}", ", ".join(has) if has else refs["noFields"])))
    return failures


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _canonical(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def derived_id(prefix: str, *parts: Any) -> str:
    """``<prefix>-<12 hex digits>`` of the SHA-256 of the parts' JSON, as the TypeScript mocks derive it."""
    text = json.dumps(_canonical(list(parts)), separators=(",", ":"), ensure_ascii=False)
    return f"{prefix}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


def checked_inputs(news: Mapping[str, Any]) -> Dict[str, Any]:
    """The inputs with the table's defaults applied, as check hands them on."""
    inputs = {k: v for k, v in news.items() if not k.startswith("__")}
    for field in MODEL["fields"]:
        if "default" in field and inputs.get(field["name"]) is None:
            inputs[field["name"]] = field["default"]
    return inputs


def create_body(inputs: Mapping[str, Any]) -> Dict[str, Any]:
    """The create request: every sent field declared (or defaulted); a field whose absence means "keep" or "clear" left out."""
    return {f["name"]: inputs[f["name"]] for f in MODEL["fields"] if f["sentTo"] == "service" and inputs.get(f["name"]) is not None}


def _to_manifest(mapping: Dict[str, Any], value: Any) -> Any:
    if value is None:
        return mapping["leftOut"]
    if mapping["kind"] == "list":
        return [value]
    if mapping["kind"] == "members":
        return {mapping["members"][k]: v for k, v in value.items()}
    return value


def _set_at(target: Dict[str, Any], path: Sequence[str], value: Any) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


def _value_at(source: Mapping[str, Any], path: Sequence[str]) -> Any:
    for key in path:
        source = source.get(key) if isinstance(source, Mapping) else None
    return source


def _holds_secret(value: Any) -> bool:
    engine = MODEL["engine"]
    if isinstance(value, Mapping):
        return value.get(engine["signatureKey"]) == engine["secret"] or any(_holds_secret(v) for v in value.values())
    return isinstance(value, (list, tuple)) and any(_holds_secret(v) for v in value)


def secret_inputs(news: Mapping[str, Any]) -> List[str]:
    """The inputs the program declared secret (a secret anywhere inside counts), in the field table's order."""
    return [f["name"] for f in MODEL["fields"] if _holds_secret(news.get(f["name"]))]


def _as_secret(value: Any) -> Dict[str, Any]:
    return {MODEL["engine"]["signatureKey"]: MODEL["engine"]["secret"], "value": value}


def _with_secret_marks(outputs: Dict[str, Any], secret: Sequence[str]) -> Dict[str, Any]:
    """The outputs marked as the provider marks them: a reported field secret when its input is, an output derived
    from an input (the image's digest) when that input is, the answer's deployment and manifest when a sent input
    is, and the secret inputs listed."""
    if not secret:
        return outputs
    marks = MODEL["secrets"]
    sent = any(f["sentTo"] == "service" and f["name"] in secret for f in MODEL["fields"])
    for field in MODEL["fields"]:
        if field.get("reportedAtTop") and field["name"] in secret and outputs.get(field["name"]) is not None:
            outputs[field["name"]] = _as_secret(outputs[field["name"]])
    keys = [key for name, derived in marks["withInput"].items() if name in secret for key in derived]
    for key in keys + (marks["whenSentSecret"] if sent else []):
        if outputs.get(key) is not None:
            outputs[key] = _as_secret(outputs[key])
    outputs[marks["inputsKey"]] = list(secret)
    return outputs


def derived_digest(image: str) -> str:
    """The digest the mocks give an image no digest is given for: ``sha256:`` and the SHA-256 of its text."""
    return "sha256:" + hashlib.sha256(image.encode("utf-8")).hexdigest()


def _image_name(image: str) -> str:
    """The image's name as written, without its tag (a colon after the last slash) and digest (after the ``@``)."""
    name = image.split("@", 1)[0]
    colon = name.find(":", name.rfind("/") + 1)
    return name if colon == -1 else name[:colon]


def image_digest(image: str, digests: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """getImageDigest's answer under the mocks: a digest-form image's own digest, else the one given, else derived."""
    digest = image.split("@", 1)[1] if "@" in image else (digests or {}).get(image) or derived_digest(image)
    return {"image": image, "digest": digest, "pinnedImage": f"{_image_name(image)}@{digest}"}


def agent_outputs(
    news: Mapping[str, Any], image_digests: Optional[Mapping[str, str]] = None, pin_by_default: bool = True
) -> Tuple[str, Dict[str, Any]]:
    """The id and outputs a create stores for these (valid) inputs, secrets as the engine serializes them: the agent
    ready, unless the program does not wait; a tag-form image pinned (unless the agent or the stack's default says
    not) to the digest given for it, else one derived from it."""
    service, pinning = MODEL["service"], MODEL["pinning"]
    inputs = checked_inputs(plain_value(news))
    body = create_body(inputs)
    image, pins = inputs.get(pinning["image"]), inputs.get(pinning["input"])
    pinned = image_digest(image, image_digests) if isinstance(image, str) and "@" not in image and (pins if isinstance(pins, bool) else pin_by_default) else None
    if pinned is not None:
        body[pinning["image"]] = pinned["pinnedImage"]
    spec: Dict[str, Any] = {}
    for field in MODEL["fields"]:
        mapping = field.get("manifest")
        if field["sentTo"] != "service" or mapping is None:
            continue
        sent = body.get(field["name"])
        if sent is None and field["undeclared"] == "keep":
            value = service["chosenWhenLeftOut"][field["name"]]
        else:
            value = _to_manifest(mapping, sent if sent is not None else field.get("default"))
        if value is not None:
            _set_at(spec, mapping["path"], value)
    spec.update(service["specExtras"])
    name = str(body["serviceName"])
    ready = inputs.get("waitForReady") is not False
    deployment_id = derived_id("dep", body)
    head = service["manifestHead"]
    manifest = {"apiVersion": head["apiVersion"], "kind": head["kind"], "metadata": {"name": name, "namespace": head["namespace"]}, "spec": spec}
    outputs: Dict[str, Any] = {}
    for field in MODEL["fields"]:
        if field.get("reportedAtTop"):
            outputs[field["name"]] = _value_at(spec, field["manifest"]["path"])
        elif inputs.get(field["name"]) is not None:
            outputs[field["name"]] = inputs[field["name"]]
    if pinned is not None:
        outputs[pinning["output"]] = pinned["digest"]
    outputs.update(
        {
            "name": name,
            "ready": ready,
            "activeDeploymentId": deployment_id,
            "activeDeploymentReady": ready,
            "deployment": {"id": deployment_id, "serviceId": derived_id("svc", name), "createdAt": service["time"], "updatedAt": service["time"]},
            "manifest": manifest,
            "createdAt": service["time"],
            "updatedAt": service["time"],
            "activeSessionCount": 0,
            "available": ready,
            "desiredDeploymentId": deployment_id,
        }
    )
    return name, _with_secret_marks(outputs, secret_inputs(news))


LogLine = Union[str, Mapping[str, str]]


def _ns_of(timestamp: str) -> int:
    base, _, rest = timestamp.partition(".")
    fraction = rest.rstrip("Z") if rest else ""
    if not rest:
        base = base.rstrip("Z")
    seconds = int(datetime.fromisoformat(base).replace(tzinfo=timezone.utc).timestamp())
    return seconds * 1_000_000_000 + int(fraction.ljust(9, "0") or 0)


def _iso_of(ns: int) -> str:
    seconds, fraction = divmod(ns, 1_000_000_000)
    return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{fraction:09d}Z"


def log_page(lines: Sequence[LogLine], active_deployment: Optional[str], args: Mapping[str, Any]) -> Dict[str, Any]:
    """One page of getAgentLogs over the agent's lines, as the service answers it (newest first, ten at most, by default)."""
    first = _ns_of(MODEL["service"]["time"])
    entries = []
    for index, line in enumerate(lines):
        entry = {"log": line} if isinstance(line, str) else dict(line)
        ns = _ns_of(entry["timestamp"]) if "timestamp" in entry else first + index * 1_000_000_000
        entries.append((ns, entry.get("deploymentId", active_deployment or ""), entry["log"]))
    entries.sort(key=lambda e: e[0])
    start, end, needle = args.get("startTime"), args.get("endTime"), args.get("query")
    matching = [
        e
        for e in entries
        if (start is None or e[0] > int(start) * 1_000_000_000)
        and (end is None or e[0] < int(end) * 1_000_000_000)
        and (args.get("deploymentId") is None or e[1] == args["deploymentId"])
        and (needle is None or needle.lower() in e[2].lower())
    ]
    if args.get("order", "desc") == "desc":
        matching.reverse()
    offset, limit = int(args.get("offset") or 0), int(args.get("limit") or 10)
    page = matching[offset : offset + limit]
    return {"total": {"value": len(matching), "relation": "eq"}, "logs": [{"log": e[2], "timestamp": _iso_of(e[0])} for e in page]}
