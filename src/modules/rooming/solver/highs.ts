/**
 * HiGHS (the `highs` package, WebAssembly) loaded on first use: the module and its wasm binary
 * cost start-up time, and most processes never plan rooms (docs/rooming.md "Solver").
 */
import type { Highs } from 'highs';

let loading: Promise<Highs> | null = null;

export function loadHighs(): Promise<Highs> {
  loading ??= import('highs').then((m) => {
    // The package is CommonJS: at run time Node hands its loader function over as the default
    // export itself; its types describe it one level down (`default.default`). Take whichever is
    // the function.
    const exported = m.default;
    const load = typeof exported === 'function' ? exported : exported.default;
    return load();
  });
  return loading;
}
