// Runs a CloudFront Function's own source in Node, as CloudFront calls it: `handler(event)`, with
// the `cloudfront` module's KeyValueStore helper backed by a plain object and Node's `crypto`.
import { createRequire } from 'node:module';

export interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string }>;
  headers: Record<string, { value: string }>;
}
export interface CfResponse {
  statusCode: number;
  headers: Record<string, { value: string }>;
  body?: { encoding: string; data: string };
}
export type CfHandler = (event: { request: CfRequest }) => Promise<CfRequest | CfResponse> | CfRequest | CfResponse;

const IMPORT = /^import cf from 'cloudfront';$/m;

export function loadCloudFrontFunction(source: string, store: Record<string, string> = {}): CfHandler {
  const cf = {
    kvs: () => ({
      get: async (key: string) => {
        if (!Object.hasOwn(store, key)) throw new Error(`KeyValueStore: no key ${key}`);
        return store[key];
      },
    }),
  };
  // The function's own source, run as CloudFront runs it.
  const factory = new Function('cf', 'require', `${source.replace(IMPORT, '')}\nreturn handler;`) as (cf: unknown, require: NodeJS.Require) => CfHandler;
  return factory(cf, createRequire(import.meta.url));
}

export function isResponse(result: CfRequest | CfResponse): result is CfResponse {
  return 'statusCode' in result;
}
