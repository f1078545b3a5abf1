#!/usr/bin/env python3
"""A deliberately misbehaving adapter, for the harness's fault tests.

It speaks adapter protocol v1 for one op, key_normalizer.normalize_key, on
plain strings (it replaces "-" with "_"), and misbehaves when the string
names a fault:

  crash     exit(3) without answering          hang      never answer
  garbage   write a line that is not JSON      wrong-id  answer with another id
  twice     answer twice                       exit      exit(0) without answering
  huge      answer with a 100 MB line          flood     write 50 MB to stderr, then answer
  crash-once  crash the first time only (a marker file in $MISBEHAVE_STATE)

MISBEHAVE_HELLO=bad makes the handshake fail (protocol 99).
"""
import json
import os
import sys


def answer(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        req = json.loads(line)
        rid, op = req["id"], req["op"]
        if op == "bye":
            return 0
        if op == "hello":
            proto = 99 if os.environ.get("MISBEHAVE_HELLO") == "bad" else 1
            answer({"id": rid, "ok": {"name": "misbehave", "version": "0", "language": "python",
                                      "protocol": proto, "ops": ["key_normalizer.normalize_key"], "features": []}})
            continue
        arg = req["args"][0]
        if not isinstance(arg, str):
            answer({"id": rid, "unsupported": "strings only"})
            continue
        fault = arg.split(":")[0]
        if fault == "crash":
            os._exit(3)
        if fault == "crash-once":
            marker = os.path.join(os.environ["MISBEHAVE_STATE"], "crashed")
            if not os.path.exists(marker):
                open(marker, "w").close()
                os._exit(3)
        if fault == "hang":
            continue
        if fault == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        if fault == "wrong-id":
            answer({"id": rid + 100000, "ok": arg.replace("-", "_")})
            continue
        if fault == "exit":
            return 0
        if fault == "huge":
            sys.stdout.write('{"id":%d,"ok":"' % rid)
            chunk = "x" * (1 << 20)
            for _ in range(100):
                sys.stdout.write(chunk)
            sys.stdout.write('"}\n')
            sys.stdout.flush()
            continue
        if fault == "flood":
            chunk = ("e" * 1023 + "\n") * 1024
            for _ in range(50):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        answer({"id": rid, "ok": arg.replace("-", "_")})
        if fault == "twice":
            answer({"id": rid, "ok": arg.replace("-", "_")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
