// ptc-conformance/termgen: ptc-conformance-sdk/termgen, seeded random terms.
export * from "ptc-conformance-sdk/termgen";
