import { atomName, serve } from "ptc-conformance-sdk";

const normalizeKey = (k) =>
  atomName(k)?.replaceAll("-", "_") ?? (typeof k === "string" ? k.replaceAll("-", "_") : k);

serve({
  name: "my-port", version: "0.13.0",
  ops: { "key_normalizer.normalize_key": normalizeKey },
  features: ["atoms"],
});
