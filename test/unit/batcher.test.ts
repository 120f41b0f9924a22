/** lib/batcher.ts: group commit of concurrent calls (used by POST /scans and the token lookup). */
import { describe, expect, it } from 'vitest';
import { batcher, batcherPer, type Pending } from '../../src/lib/batcher.js';

/** A batcher whose batches wait for `release()`; records every batch's inputs. */
function gated(maxBatch: number, maxInFlight: number) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  let idle = 0;
  const submit = batcher<number, number>({
    maxBatch,
    maxInFlight,
    async run(batch: Pending<number, number>[]) {
      batches.push(batch.map((c) => c.input));
      await new Promise<void>((resolve) => gates.push(resolve));
      for (const call of batch) call.resolve(call.input * 10);
    },
    onIdle: () => idle++,
  });
  const release = async () => {
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { submit, batches, release, idle: () => idle };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('batcher', () => {
  it('a lone call starts at once; calls arriving meanwhile go together in the next batch', async () => {
    const b = gated(50, 1);
    const first = b.submit(1);
    await tick();
    expect(b.batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => b.submit(n));
    await tick();
    expect(b.batches).toEqual([[1]]); // waiting for the running batch
    await b.release();
    expect(await first).toBe(10);
    expect(b.batches).toEqual([[1], [2, 3, 4]]);
    await b.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(b.idle()).toBe(1);
  });

  it('keeps to maxBatch and maxInFlight', async () => {
    const b = gated(2, 2);
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => b.submit(n));
    await tick();
    // The first two calls each found a free slot; the rest wait, at most two per batch.
    expect(b.batches).toEqual([[1], [2]]);
    await b.release();
    expect(b.batches).toEqual([[1], [2], [3, 4]]);
    await b.release();
    await b.release();
    await b.release();
    await b.release();
    expect(b.batches).toEqual([[1], [2], [3, 4], [5, 6], [7]]);
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('a batch that throws rejects the calls it did not settle, and the next batch still runs', async () => {
    const submit = batcher<number, string>({
      maxBatch: 10,
      maxInFlight: 1,
      async run(batch) {
        if (batch.some((call) => call.input === 2)) {
          batch[0]!.resolve('settled before the failure');
          throw new Error('database gone');
        }
        for (const call of batch) call.resolve(`ok ${call.input}`);
      },
    });
    // 1 runs alone; 2 and 3 arrive while it runs and go together.
    const results = await Promise.allSettled([submit(1), submit(2), submit(3)]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'ok 1' });
    expect(results[1]).toEqual({ status: 'fulfilled', value: 'settled before the failure' });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { message: 'database gone' } });
    expect(await submit(4)).toBe('ok 4');
  });

  it('a call the batch forgot to settle is rejected instead of hanging', async () => {
    const submit = batcher<number, number>({
      maxBatch: 10,
      maxInFlight: 1,
      async run(batch) {
        for (const call of batch) if (call.input === 1) call.resolve(1);
      },
    });
    const [a, b] = await Promise.allSettled([submit(1), submit(2)]);
    expect(a).toEqual({ status: 'fulfilled', value: 1 });
    expect(b).toMatchObject({
      status: 'rejected',
      reason: { message: 'batch finished without settling this call' },
    });
  });

  it('batcherPer: one batcher per owner and key, made again after it fell idle', async () => {
    const made: string[] = [];
    const running: string[] = [];
    const gates: (() => void)[] = [];
    const per = batcherPer<{ name: string }, string, number, string>((owner, key) => {
      made.push(`${owner.name}/${key}`);
      return {
        maxBatch: 10,
        maxInFlight: 1,
        async run(batch) {
          running.push(`${owner.name}/${key}:${batch.map((c) => c.input).join(',')}`);
          await new Promise<void>((resolve) => gates.push(resolve));
          for (const call of batch) call.resolve(`${owner.name}/${key}/${call.input}`);
        },
      };
    });
    const db1 = { name: 'db1' };
    const db2 = { name: 'db2' };
    const calls = [per(db1, 'a')(1), per(db1, 'b')(2), per(db2, 'a')(3), per(db1, 'a')(4)];
    await tick();
    // Three batchers, each with its own slot: three batches run at once; 4 waits behind 1.
    expect(running).toEqual(['db1/a:1', 'db1/b:2', 'db2/a:3']);
    while (gates.length) {
      gates.shift()!();
      await tick();
    }
    expect(await Promise.all(calls)).toEqual(['db1/a/1', 'db1/b/2', 'db2/a/3', 'db1/a/4']);
    expect(made).toEqual(['db1/a', 'db1/b', 'db2/a']);
    const again = per(db1, 'a')(5);
    await tick();
    gates.shift()!();
    expect(await again).toBe('db1/a/5');
    expect(made).toEqual(['db1/a', 'db1/b', 'db2/a', 'db1/a']);
  });
});
