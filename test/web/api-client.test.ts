import { Amplify } from 'aws-amplify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from '@/lib/api-client';
import { configureAmplify } from '@/lib/amplify';
import { parseRuntimeConfig, setRuntimeConfig } from '@/lib/runtime-config';
import { FakeBackend, json, TEST_CONFIG } from './support/fake-backend';
import { seedSignedInUser } from './support/session';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const result = parseRuntimeConfig({ ...TEST_CONFIG, jobStatusApiUrl: 'https://status.example.ca' });
  if (!result.ok) throw new Error('test config is invalid');
  setRuntimeConfig(result.config);
  configureAmplify(result.config);
});
afterEach(() => {
  localStorage.clear();
});

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiRequest', () => {
  it('sends JSON with the access token and cookies, and returns the JSON answer', async () => {
    const { accessToken } = seedSignedInUser();
    const backend = new FakeBackend().on('POST', '/api/echo', (request) => json({ got: request.body })).install();
    await expect(apiRequest('/api/echo', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ got: { a: 1 } });
    const [request] = backend.requestsTo('/api/echo');
    expect(request?.url.href).toBe('https://api.example.ca/api/echo');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Accept')).toBe('application/json');
    expect(request?.credentials).toBe('include');
  });

  it('sends no body and no content type on a GET, to the job-status base when asked', async () => {
    seedSignedInUser();
    const backend = new FakeBackend().on('GET', '/api/job-status/x', () => json({ status: 'RUNNING' })).install();
    await apiRequest('/api/job-status/x', { base: 'jobStatus' });
    const [request] = backend.requestsTo('/api/job-status/x');
    expect(request?.url.origin).toBe('https://status.example.ca');
    expect(request?.body).toBeUndefined();
    expect(request?.headers.has('Content-Type')).toBe(false);
  });

  it('carries the server’s message and code on an error answer', async () => {
    seedSignedInUser();
    new FakeBackend().on('POST', '/api/toc', () => json({ message: 'Org unit 1 was not found.', code: 'course_not_found' }, 502)).install();
    const error = await rejection(apiRequest('/api/toc', { method: 'POST', body: {} }));
    expect(error.status).toBe(502);
    expect(error.code).toBe('course_not_found');
    expect(error.serverMessage).toBe('Org unit 1 was not found.');
  });

  it('copes with an error answer that is not JSON', async () => {
    seedSignedInUser();
    new FakeBackend().on('GET', '/api/x', () => new Response('<h1>502</h1>', { status: 502 })).install();
    const error = await rejection(apiRequest('/api/x'));
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeUndefined();
  });

  it('reports an unreachable server as status 0', async () => {
    seedSignedInUser();
    new FakeBackend()
      .on('GET', '/api/x', () => {
        throw new TypeError('Failed to fetch');
      })
      .install();
    const error = await rejection(apiRequest('/api/x'));
    expect(error.status).toBe(0);
    expect(error.code).toBe('network');
  });

  it('reports a success answer that is not JSON', async () => {
    seedSignedInUser();
    new FakeBackend().on('GET', '/api/x', () => new Response('ok', { status: 200 })).install();
    expect((await rejection(apiRequest('/api/x'))).code).toBe('invalid_response');
  });

  it('does not call the API without a signed-in user', async () => {
    const backend = new FakeBackend().install();
    const error = await rejection(apiRequest('/api/x'));
    expect(error.status).toBe(401);
    expect(backend.requestsTo('/api/x')).toHaveLength(0);
    expect(Amplify.getConfig().Auth?.Cognito.userPoolClientId).toBe(TEST_CONFIG.userPoolClientId);
  });
});
