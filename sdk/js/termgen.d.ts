// Declarations of termgen.js and of the adapter hook's event; index.d.ts
// re-exports them:
//
//   export { termGen, type TermGen, type HookEvent } from "./termgen.js";
//
// and its port description gains `hook?: (event: HookEvent) => void`, the
// adapter createAdapter returns `uncheckedOps: string[]`.

import type { Raised, Term, Unsupported } from "./index.js";

/** A seeded generator of terms over the boundary's domain. */
export interface TermGen {
  term(depth?: number): Term;
  /** Terms Jason mostly can encode. */
  jsonish(depth?: number): Term;
  /** Terms for to_string/1, mostly chardata. */
  chardata(depth?: number): Term;
  atomName(): string;
  string(): Term;
  float(): number;
  integer(): number | bigint;
  text(max?: number): string;
  below(n: number): number;
  pick<T>(xs: T[]): T;
  chance(p: number): boolean;
}
export declare function termGen(seed?: number): TermGen;

/** What a port's hook sees for each line the adapter loop reads. */
export interface HookEvent {
  /** The request's id (decimal text), when readable. */
  id?: string;
  op?: string;
  /** The decoded argument terms, when they decoded. */
  args?: Term[];
  outcome: "ok" | "raised" | "unsupported" | "bug" | "rejected" | "hello" | "bye";
  /** The answer line written, or null. */
  answer: string | null;
  /** What was thrown, or why the line was rejected. */
  error?: Raised | Unsupported | Error | string;
  /** The request line. */
  line: string;
}
