// ptc-conformance/elixir: ptc-conformance-sdk/elixir, the SDK's Elixir layer.
export * from "ptc-conformance-sdk/elixir";
