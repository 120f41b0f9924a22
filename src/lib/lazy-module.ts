/**
 * Heavy CommonJS libraries loaded on first use instead of at start-up (to restart in
 * 2 s). `lazyModule<T>('pdfkit')` returns a function giving the module's `module.exports` (typed
 * `T`), required synchronously the first time it is called and cached by Node afterwards, so the
 * callers keep their synchronous signatures. Only for packages that ship CommonJS.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(id) as T;
    return loaded;
  };
}
