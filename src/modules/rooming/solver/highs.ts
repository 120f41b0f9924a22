/**
 * HiGHS (the `highs` package, WebAssembly) loaded on first use: the module and its wasm binary
 * cost start-up time, and most processes never plan rooms (docs/rooming.md "Solver").
 */
import type { Highs } from 'highs';

type Loader = (options?: object) => Promise<Highs>;
let loading: Promise<Highs> | null = null;

export function loadHighs(): Promise<Highs> {
  // The package is CommonJS: its loader function is the ES module's default export at run time.
  loading ??= import('highs').then((m) => (m as unknown as { default: Loader }).default());
  return loading;
}
