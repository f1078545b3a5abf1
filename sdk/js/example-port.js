import { atomName, binary, binaryBytes, serve } from "ptc-conformance-sdk";
// normalize_key/1 (every release): an atom becomes its name; a binary, string or Bytes, has each "-" byte made "_"
const normalizeKey = (k) => {
  const bytes = binaryBytes(atomName(k) ?? k);
  return bytes ? binary(bytes.map((b) => (b === 0x2d ? 0x5f : b))) : k;
};
serve({
  name: "my-port", version: "0.13.0",
  ops: { "key_normalizer.normalize_key": normalizeKey },
  features: ["atoms", "binaries", "structs"],
  release: process.argv[2], // the PtcRunner release it implements: 0.11.0, 0.12.0 or 0.13.0 (none: 0.13.0)
});
