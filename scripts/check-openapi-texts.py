#!/usr/bin/env python3
"""Every text a request body sends says what it may hold.

The server refuses control characters in every text it reads (400 invalid_character); the
document says so with a pattern on each request text (`*text`, `*named`, or a stricter one), or an
enum, a format or a const. This walks every request body of openapi.yaml (JSON and multipart,
through $refs, nested objects, lists and maps) and lists the texts with none of them, so a new
member cannot be added without it. A raw body (a clearing file) is the operation's own.
Usage: scripts/check-openapi-texts.py [openapi.yaml]   (needs PyYAML: make test runs it in the
contract test's venv)
"""
import sys

import yaml

import openapi_doc

SPEC = sys.argv[1] if len(sys.argv) > 1 else "Sources/TresorServer/Resources/openapi.yaml"
document = yaml.safe_load(open(SPEC))


def resolve(node):
    return openapi_doc.resolve(document, node)


def texts(node, where, seen=()):
    """(where, schema) of every text schema under `node`."""
    ref = node.get("$ref") if isinstance(node, dict) else None
    if ref in seen:
        return
    node = resolve(node)
    if not isinstance(node, dict):
        return
    seen = seen + ((ref,) if ref else ())
    types = node.get("type")
    if "string" in (types if isinstance(types, list) else [types]):
        yield where, node
    for name, member in (node.get("properties") or {}).items():
        yield from texts(member, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield from texts(node[key], f"{where}[]", seen)
    for key in ("allOf", "oneOf", "anyOf"):
        for part in node.get(key) or []:
            yield from texts(part, where, seen)


missing = []
for path, operations in document["paths"].items():
    for method, operation in operations.items():
        if method not in ("post", "put", "patch", "delete") or "requestBody" not in operation:
            continue
        for media, content in resolve(operation["requestBody"])["content"].items():
            for where, schema in texts(content.get("schema", {}), f"{method.upper()} {path} ({media})"):
                if where.endswith(")"):
                    continue  # the body itself is a text: a raw file
                if not any(key in schema for key in ("pattern", "enum", "format", "const")):
                    missing.append(where)
for where in missing:
    print(f"no pattern: {where}")
print(f"openapi texts: {len(missing)} request texts without a pattern, an enum, a format or a const")
sys.exit(1 if missing else 0)
