#!/usr/bin/env python3
"""A deliberately misbehaving adapter, for the harness's fault tests.

It speaks adapter protocol v1 for one op, key_normalizer.normalize_key, on
plain strings (it replaces "-" with "_"), and misbehaves when the string
names a fault:

  crash     exit(3) without answering          hang      never answer
  garbage   write a line that is not JSON      wrong-id  answer with another id
  twice     answer twice                       exit      exit(0) without answering
  huge      answer with a 100 MB line          flood     write 50 MB to stderr, then answer
            (huge:N and flood:N: N MB instead)
  crash-once  crash the first time only (a marker file in $MISBEHAVE_STATE)
  slow:S    sleep S seconds (blocking what is queued behind it), then answer

MISBEHAVE_FLOOD=N writes N MB to stderr before the handshake is answered.
MISBEHAVE_HELLO=bad makes the handshake fail (protocol 99);
MISBEHAVE_HELLO=unknown declares an op and a feature the kit does not know
(protocol.to_json, atom) besides its own. MISBEHAVE_OPS and
MISBEHAVE_FEATURES (comma-separated) replace the declared ops and features;
every op is answered as normalize_key is. MISBEHAVE_RELEASE names the
release its hello says it implements (AP-18).
"""
import json
import os
import time
import sys


def answer(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def flood(megabytes):
    chunk = ("e" * 1023 + "\n") * 1024
    for _ in range(megabytes):
        sys.stderr.write(chunk)
    sys.stderr.flush()


def main():
    flood(int(os.environ.get("MISBEHAVE_FLOOD", "0")))
    for line in sys.stdin:
        req = json.loads(line)
        rid, op = req["id"], req["op"]
        if op == "bye":
            return 0
        if op == "hello":
            mode = os.environ.get("MISBEHAVE_HELLO")
            proto = 99 if mode == "bad" else 1
            ops = os.environ.get("MISBEHAVE_OPS", "key_normalizer.normalize_key").split(",")
            features = [f for f in os.environ.get("MISBEHAVE_FEATURES", "").split(",") if f]
            if mode == "unknown":
                ops, features = ops + ["protocol.to_json"], ["atom"]
            hello = {"name": "misbehave", "version": "0", "language": "python",
                     "protocol": proto, "ops": ops, "features": features}
            if "MISBEHAVE_RELEASE" in os.environ:
                hello["release"] = os.environ["MISBEHAVE_RELEASE"]
            answer({"id": rid, "ok": hello})
            continue
        arg = req["args"][0]
        if not isinstance(arg, str):
            answer({"id": rid, "unsupported": "strings only"})
            continue
        fault, _, size = arg.partition(":")
        if fault == "crash":
            os._exit(3)
        if fault == "crash-once":
            marker = os.path.join(os.environ["MISBEHAVE_STATE"], "crashed")
            if not os.path.exists(marker):
                open(marker, "w").close()
                os._exit(3)
        if fault == "hang":
            continue
        if fault == "slow":
            # Blocks every request queued behind it, then answers.
            time.sleep(float(size))
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
            for _ in range(int(size or 100)):
                sys.stdout.write(chunk)
            sys.stdout.write('"}\n')
            sys.stdout.flush()
            continue
        if fault == "flood":
            flood(int(size or 50))
        answer({"id": rid, "ok": arg.replace("-", "_")})
        if fault == "twice":
            answer({"id": rid, "ok": arg.replace("-", "_")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
