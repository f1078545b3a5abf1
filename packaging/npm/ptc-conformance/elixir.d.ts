export * from "ptc-conformance-sdk/elixir";
