/** The part of autocannon 8's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    /** Seconds; ignored when `amount` is set. */
    duration?: number;
    /** Total number of requests. */
    amount?: number;
    /** Per-request timeout, seconds. */
    timeout?: number;
    /** Milliseconds between samples of the requests/throughput histograms. */
    sampleInt?: number;
    bailout?: number;
    /** Request templates cycled per connection; setupRequest() rebuilds each request (unique bodies). */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: {
        method?: string;
        path?: string;
        body?: string;
        headers?: Record<string, string>;
      }) => {
        method?: string;
        path?: string;
        body?: string;
        headers?: Record<string, string>;
      };
    }[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    totalCompletedRequests?: number;
    statusCodeStats?: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    stop(): void;
  }

  export default function autocannon(opts: Options): Instance;
}
