#!/usr/bin/env python3
import sys
from ptc_sdk import atom_name, serve

def normalize_key(k):  # PtcRunner.SubAgent.KeyNormalizer.normalize_key/1, the same in every release
    name = atom_name(k)  # an atom (nil, true and false too) becomes its name
    k = k if name is None else name
    if type(k) is bytes:
        return k.replace(b"-", b"_")
    return k.replace("-", "_") if type(k) is str else k

ops = {"key_normalizer.normalize_key": normalize_key}
release = sys.argv[1] if len(sys.argv) > 1 else None  # the PtcRunner release it implements: 0.11.0, 0.12.0 or 0.13.0
sys.exit(serve(name="my-port", version="0.1.0", ops=ops, features=["atoms", "binaries", "structs"], release=release))
