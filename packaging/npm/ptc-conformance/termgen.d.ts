export * from "ptc-conformance-sdk/termgen";
