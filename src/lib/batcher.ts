/**
 * Group commit: concurrent calls coalesced into batches. A call that finds fewer than
 * `maxInFlight` batches running starts one at once (so a lone call waits for nothing); calls that
 * arrive while every slot is busy queue up and go together, up to `maxBatch` at a time, as soon
 * as a running batch finishes. Under load the batches grow by themselves; no timer is involved.
 */

/** One queued call: its input and the settle functions of the promise its caller awaits. */
export interface Pending<I, O> {
  readonly input: I;
  resolve(value: O): void;
  reject(reason: unknown): void;
}

export interface BatcherOptions<I, O> {
  /** Most calls in one batch (≥ 1). */
  maxBatch: number;
  /** Most batches running at once (≥ 1). */
  maxInFlight: number;
  /**
   * Runs one batch and settles each of its calls before it resolves. A call it leaves unsettled
   * is rejected with its error (if it throws) or with an Error saying so (a bug in `run`).
   */
  run(batch: Pending<I, O>[]): Promise<void>;
  /** Called when no batch is running and none is queued (e.g. to drop the batcher). */
  onIdle?(): void;
}

/** A function that submits one call and resolves with its own result. */
export type Submit<I, O> = (input: I) => Promise<O>;

export function batcher<I, O>(options: BatcherOptions<I, O>): Submit<I, O> {
  const queue: Pending<I, O>[] = [];
  let running = 0;

  const pump = (): void => {
    while (running < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      running++;
      void runBatch(batch).finally(() => {
        running--;
        pump();
        if (running === 0 && queue.length === 0) options.onIdle?.();
      });
    }
  };

  const runBatch = async (batch: Pending<I, O>[]): Promise<void> => {
    let failure: unknown = new Error('batch finished without settling this call');
    try {
      await options.run(batch);
    } catch (error) {
      failure = error;
    }
    // Settling a promise twice is a no-op, so this only reaches calls `run` left unsettled.
    for (const call of batch) call.reject(failure);
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      pump();
    });
}

/**
 * One batcher per `(owner, key)` (e.g. per database handle and event), made by `make` on first use
 * and dropped when it falls idle, so keys that come and go leave nothing behind.
 */
export function batcherPer<Owner extends object, K, I, O>(
  make: (owner: Owner, key: K) => Omit<BatcherOptions<I, O>, 'onIdle'>,
): (owner: Owner, key: K) => Submit<I, O> {
  const byOwner = new WeakMap<Owner, Map<K, Submit<I, O>>>();
  return (owner, key) => {
    let byKey = byOwner.get(owner);
    if (!byKey) {
      byKey = new Map();
      byOwner.set(owner, byKey);
    }
    let submit = byKey.get(key);
    if (!submit) {
      const keyed = byKey;
      submit = batcher({ ...make(owner, key), onIdle: () => keyed.delete(key) });
      byKey.set(key, submit);
    }
    return submit;
  };
}
