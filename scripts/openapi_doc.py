"""The API document as the scripts walk it: one way to follow a `$ref`.

One copy for the contract gate's document check (check-openapi-texts.py) and the robustness
probe, which each had their own.
"""


def resolve(document, node):
    """`node` with its `$ref`s followed (local ones, `#/components/...`) until a schema."""
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node
