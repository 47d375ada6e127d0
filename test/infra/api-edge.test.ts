// The QA API's edge code, run in Node: the viewer-request function on the /api/ behaviours and the
// Lambda@Edge function that hashes POST and PUT bodies for the function URLs behind origin access control.
import { clientOfQuery } from '../../api/http/protocol-routes.ts';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EDGE_TOKEN_HEADER, SITE_HOST_HEADER } from '../../api/aws/settings.ts';
import { parseCourseQuery, parseJobsQuery, parseRestoreQuery } from '../../api/http/validate-history.ts';
import { BODY_HASH_FILE, HISTORY_QUERY_NAMES, apiGateSource } from '../../infra/lib/site.ts';
import { isResponse, loadCloudFrontFunction } from './edge-runtime.ts';
import type { CfRequest, CfResponse } from './edge-runtime.ts';

const HOST = 'd111111abcdef8.cloudfront.net';
const request = (method: string, uri: string, headers: Record<string, string> = {}): CfRequest => ({
  method,
  uri,
  querystring: {},
  headers: Object.fromEntries(Object.entries({ host: HOST, ...headers }).map(([name, value]) => [name, { value }])),
});
const jsonOf = (response: CfResponse) => JSON.parse(response.body!.data) as { message: string; code: string };

describe('the API gate at the edge', () => {
  const gate = loadCloudFrontFunction(apiGateSource([]));

  it('moves the bearer token aside for the origin signature, and passes the site host', async () => {
    for (const [method, uri] of [
      ['POST', '/api/toc'],
      ['POST', '/api/run-tests'],
      ['GET', '/api/job-status/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10'],
      ['GET', '/api/jobs'],
      ['GET', '/api/dismissals'],
      ['PUT', '/api/dismissals'],
      ['DELETE', '/api/dismissals'],
      ['DELETE', '/api/jobs/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10'],
      ['GET', '/api/protocols'],
      ['PUT', '/api/protocols'],
      ['DELETE', '/api/protocols'],
      ['GET', '/api/protocols/runs/job-1'],
      ['PUT', '/api/protocols/runs/job-1'],
      ['POST', '/api/protocols/runs/job-1'],
      ['DELETE', '/api/report-links'],
    ] as const) {
      const result = await gate({ request: request(method, uri, { authorization: 'Bearer a.b.c', [EDGE_TOKEN_HEADER]: 'Bearer forged', [SITE_HOST_HEADER]: 'evil.example' }) });
      expect(isResponse(result), uri).toBe(false);
      const passed = result as CfRequest;
      expect(passed.headers.authorization).toBeUndefined();
      expect(passed.headers[EDGE_TOKEN_HEADER]).toEqual({ value: 'Bearer a.b.c' });
      expect(passed.headers[SITE_HOST_HEADER]).toEqual({ value: HOST });
    }
    // No token: none reaches the function either, not even one the caller put in the edge's header.
    const anonymous = (await gate({ request: request('GET', '/api/job-status/x', { [EDGE_TOKEN_HEADER]: 'Bearer forged' }) })) as CfRequest;
    expect(anonymous.headers[EDGE_TOKEN_HEADER]).toBeUndefined();
  });

  it('answers unknown routes and wrong methods itself, in the API error shape', async () => {
    const missing = (await gate({ request: request('GET', '/api/nothing') })) as CfResponse;
    expect(missing.statusCode).toBe(404);
    expect(jsonOf(missing)).toEqual({ message: 'There is no API route /api/nothing.', code: 'not_found' });
    expect(((await gate({ request: request('GET', '/api/job-status/a/b') })) as CfResponse).statusCode).toBe(404);
    expect(((await gate({ request: request('GET', '/api/job-status/') })) as CfResponse).statusCode).toBe(404);
    const wrong = (await gate({ request: request('GET', '/api/toc') })) as CfResponse;
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toEqual({ value: 'POST, OPTIONS' });
    expect(jsonOf(wrong)).toEqual({ message: '/api/toc accepts POST only.', code: 'method_not_allowed' });
    expect(jsonOf((await gate({ request: request('DELETE', '/api/job-status/x') })) as CfResponse).message).toBe('/api/job-status accepts GET only.');
    // The history routes, as the local server answers them (api/http/create-api.ts).
    const listWrong = (await gate({ request: request('DELETE', '/api/jobs') })) as CfResponse;
    expect(listWrong.statusCode).toBe(405);
    expect(listWrong.headers.allow).toEqual({ value: 'GET, OPTIONS' });
    expect(jsonOf(listWrong)).toEqual({ message: '/api/jobs accepts GET only.', code: 'method_not_allowed' });
    const dismissWrong = (await gate({ request: request('POST', '/api/dismissals') })) as CfResponse;
    expect(dismissWrong.statusCode).toBe(405);
    expect(dismissWrong.headers.allow).toEqual({ value: 'GET, PUT, DELETE, OPTIONS' });
    expect(jsonOf(dismissWrong).message).toBe('/api/dismissals accepts GET, PUT, DELETE only.');
    // A run is cancelled with DELETE, and only a run: no deeper path.
    const cancelWrong = (await gate({ request: request('GET', '/api/jobs/x') })) as CfResponse;
    expect(cancelWrong.statusCode).toBe(405);
    expect(jsonOf(cancelWrong)).toEqual({ message: '/api/jobs/{id} accepts DELETE only.', code: 'method_not_allowed' });
    expect(((await gate({ request: request('DELETE', '/api/jobs/x/y') })) as CfResponse).statusCode).toBe(404);
    expect(((await gate({ request: request('DELETE', '/api/jobs/') })) as CfResponse).statusCode).toBe(404);
    expect(((await gate({ request: request('GET', '/api/dismissals/x') })) as CfResponse).statusCode).toBe(404);
  });

  it('lets through CloudFront exactly the query names the history routes read', () => {
    const read = new Set<string>();
    const recording = { get: (name: string) => (read.add(name), null) } as unknown as URLSearchParams;
    const policy = { allowPrivateTargets: false };
    expect(() => parseJobsQuery(recording)).not.toThrow();
    expect(() => parseCourseQuery(recording, policy)).toThrow();
    expect(() => parseRestoreQuery(recording, policy)).toThrow();
    expect(() => clientOfQuery(recording)).toThrow();
    expect([...read].sort()).toEqual([...HISTORY_QUERY_NAMES].sort());
  });

  it('leaves the query of the history routes to the function that reads it', async () => {
    const withQuery = (uri: string, querystring: Record<string, { value: string }>): CfRequest => ({ ...request('GET', uri, { authorization: 'Bearer a.b.c' }), querystring });
    const page = { limit: { value: '20' }, cursor: { value: 'WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJ4Il0' } };
    expect(((await gate({ request: withQuery('/api/jobs', page) })) as CfRequest).querystring).toEqual(page);
    const course = { siteUrl: { value: 'https://school.brightspace.com' }, orgUnitId: { value: '6606' }, fingerprint: { value: '0123456789abcdef0123' } };
    expect(((await gate({ request: { ...withQuery('/api/dismissals', course), method: 'DELETE' } })) as CfRequest).querystring).toEqual(course);
  });

  it('refuses every cross-origin preflight by default', async () => {
    const preflight = (await gate({ request: request('OPTIONS', '/api/toc', { origin: 'http://localhost:5173' }) })) as CfResponse;
    expect(preflight.statusCode).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the developer origins through CORS when the deployment trusts them', async () => {
    const dev = loadCloudFrontFunction(apiGateSource(['http://localhost:5173', 'https://localhost:8443']));
    const preflight = (await dev({ request: request('OPTIONS', '/api/run-tests', { origin: 'http://localhost:5173' }) })) as CfResponse;
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': { value: 'http://localhost:5173' },
      'access-control-allow-credentials': { value: 'true' },
      'access-control-allow-methods': { value: 'POST, OPTIONS' },
      'access-control-allow-headers': { value: 'authorization, content-type, accept' },
      vary: { value: 'Origin' },
    });
    const dismissals = (await dev({ request: request('OPTIONS', '/api/dismissals', { origin: 'http://localhost:5173' }) })) as CfResponse;
    expect(dismissals.statusCode).toBe(204);
    expect(dismissals.headers['access-control-allow-methods']).toEqual({ value: 'GET, PUT, DELETE, OPTIONS' });
    const stranger = (await dev({ request: request('OPTIONS', '/api/run-tests', { origin: 'https://evil.example' }) })) as CfResponse;
    expect(stranger.statusCode).toBe(403);
  });

  it('is filled in only where the source says', () => {
    expect(apiGateSource(['http://localhost:5173'])).toContain('var DEV_ORIGINS = ["http://localhost:5173"];');
    expect(apiGateSource([])).toContain(`var TOKEN_HEADER = '${EDGE_TOKEN_HEADER}';`);
    expect(apiGateSource([])).toContain(`var SITE_HOST_HEADER = '${SITE_HOST_HEADER}';`);
  });
});

describe('the body hash at the edge', () => {
  const { handler } = createRequire(import.meta.url)(BODY_HASH_FILE) as { handler: (event: unknown) => Promise<Record<string, unknown>> };
  const event = (body: unknown) => ({ Records: [{ cf: { request: { method: 'POST', uri: '/api/toc', headers: { host: [{ key: 'Host', value: 'x' }] }, body } } }] });

  it('adds the SHA-256 of the body the function URL checks the signature against', async () => {
    const text = '{"ORG_UNIT_ID":6606,"PASSWORD":"pässwörd"}';
    const result = (await handler(event({ inputTruncated: false, action: 'read-only', encoding: 'base64', data: Buffer.from(text).toString('base64') }))) as {
      headers: Record<string, { key: string; value: string }[]>;
    };
    expect(result.headers['x-amz-content-sha256']).toEqual([{ key: 'x-amz-content-sha256', value: createHash('sha256').update(text).digest('hex') }]);
    const empty = (await handler(event({ inputTruncated: false, action: 'read-only', encoding: 'base64', data: '' }))) as { headers: Record<string, { value: string }[]> };
    expect(empty.headers['x-amz-content-sha256']![0]!.value).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('hashes a dismissal the same way, and an empty body for the reads and restores on the same route', async () => {
    const text = '{"siteUrl":"https://school.brightspace.com","orgUnitId":6606,"fingerprint":"0123456789abcdef0123","reason":"Checked by hand"}';
    const put = { method: 'PUT', uri: '/api/dismissals', headers: {}, body: { inputTruncated: false, action: 'read-only', encoding: 'base64', data: Buffer.from(text).toString('base64') } };
    const hashed = (await handler({ Records: [{ cf: { request: put } }] })) as { headers: Record<string, { value: string }[]> };
    expect(hashed.headers['x-amz-content-sha256']![0]!.value).toBe(createHash('sha256').update(text).digest('hex'));
    const restore = { method: 'DELETE', uri: '/api/dismissals', querystring: 'orgUnitId=6606', headers: {} };
    const empty = (await handler({ Records: [{ cf: { request: restore } }] })) as { headers: Record<string, { value: string }[]>; querystring: string };
    expect(empty.headers['x-amz-content-sha256']![0]!.value).toBe(createHash('sha256').update('').digest('hex'));
    expect(empty.querystring).toBe('orgUnitId=6606');
  });

  it('refuses a body too large to have been read whole', async () => {
    const result = await handler(event({ inputTruncated: true, action: 'read-only', encoding: 'base64', data: 'AAAA' }));
    expect(result.status).toBe('413');
    expect(JSON.parse(result.body as string)).toMatchObject({ code: 'payload_too_large' });
  });
});
