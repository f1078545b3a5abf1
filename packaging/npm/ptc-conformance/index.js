// The module of the npm package ptc-conformance: the JavaScript porter SDK,
// ptc-conformance-sdk (a dependency of this package), under the kit's name,
// so that `import { serve } from "ptc-conformance"` and
// `import { serve } from "ptc-conformance-sdk"` give the same objects.
export * from "ptc-conformance-sdk";
