/** The part of autocannon's API the load runs use (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface RequestSpec extends RequestData {
    setupRequest?: (req: RequestData, context: Record<string, unknown>) => RequestData | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
  }

  export interface Client extends EventEmitter {
    setRequests(requests: RequestSpec[]): void;
    on(event: "response", listener: (status: number, bytes: number, durationMs: number) => void): this;
    on(event: "timeout" | "reset" | "request", listener: () => void): this;
    on(event: "connError", listener: (error: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    connectionRate?: number;
    pipelining?: number;
    requests?: RequestSpec[];
    setupClient?: (client: Client) => void;
    skipAggregateResult?: boolean;
  }

  export interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }

  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(opts: Options): Instance;
  export default autocannon;
}
