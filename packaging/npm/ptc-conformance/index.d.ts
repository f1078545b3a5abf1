// The declarations of ptc-conformance-sdk, whose module this package re-exports.
export * from "ptc-conformance-sdk";
