#!/usr/bin/env python3
# A port of native_preview.build's metadata preview (NP-6, NP-12 to NP-16)
# for a tool with no native_result, empty args and a map or scalar result,
# written on ptc_sdk 0.2.0 and frozen (tests/frozen_ports/README.md): never
# edited again. Every other input is declined (unsupported), so the cases
# it passed when frozen are the ones it must keep passing.
import sys

from ptc_sdk import Atom, Map, Struct, Tuple, Unsupported, serve, to_string

MAX_PROPERTIES = 20


def json_type(v):  # NP-15: the JSON type; everything else "string" (Quirk)
    if type(v) is bool:
        return "boolean"
    if v is None:
        return "null"
    if type(v) is int:
        return "integer"
    if type(v) is float:
        return "number"
    if type(v) in (str, bytes):
        return "string"
    if type(v) is list:
        return "array"
    if type(v) is Map:
        return "object"
    return "string"


def key_text(k):
    try:
        t = to_string(k)
    except Exception:
        raise Unsupported("a key String.Chars refuses")
    if type(t) is not str:
        raise Unsupported("a key whose text is not UTF-8")
    return t


def value_for(m, k):  # NP-14 (Quirk): Map.get(m, k) || fetch_by_atom(m, k)
    v = m.get(k)
    if v is None or v is False:
        v = m.get(Atom(k))
    return v


def metadata(result):
    if type(result) is list:
        raise Unsupported("list results are not ported")
    if type(result) is Map:
        if len(result) == 0:
            return {"schema": Map.of({"type": "object"}), "sample_keys": []}
        keys = sorted((key_text(k) for k in result.keys()), key=lambda t: t.encode("utf-8"))
        props = keys[:MAX_PROPERTIES]
        schema = {"type": "object", "properties": Map.new([(k, json_type(value_for(result, k))) for k in props])}
        if len(keys) > MAX_PROPERTIES:
            schema["truncated"] = True
        return {"schema": Map.of(schema), "sample_keys": props}
    if type(result) is Struct:
        raise Unsupported("struct results are not ported")
    return {"schema": Map.of({"type": json_type(result)})}


def build(tool, full_result, args):
    if type(tool) is not Struct or tool.module != "PtcRunner.Tool" or type(args) is not Map:
        raise Unsupported("only a %Tool{} with map args is ported")
    name = tool.fields.get("name")
    if type(name) is not str or len(args) != 0 or tool.fields.get("native_result") is not None:
        raise Unsupported("only a named tool, empty args and no native_result are ported")
    preview = metadata(full_result)
    preview.update(
        status="ok",
        full_result_cached=True,
        cache_hint=f"Call lisp_eval and then call (tool/{name} {{}}) to process the full cached result.",
    )
    return Tuple((Atom("ok"), Map.of(preview)))


sys.exit(serve(name="frozen-native-preview", version="1", ops={"native_preview.build": build},
               features=["atoms", "tuples", "floats", "bigints", "binaries", "term-keys", "structs", "temporal", "functions", "opaque"]))
