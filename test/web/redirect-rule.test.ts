import { Amplify } from 'aws-amplify';
import { describe, expect, it, vi } from 'vitest';
import { configureAmplify, isLocalHost, redirectTarget } from '@/lib/amplify';
import { parseRuntimeConfig, type RuntimeConfig } from '@/lib/runtime-config';
import { TEST_CONFIG } from './support/fake-backend';

function config(overrides: Record<string, unknown> = {}): RuntimeConfig {
  const result = parseRuntimeConfig({ ...TEST_CONFIG, ...overrides });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

describe('redirect rule', () => {
  it.each([
    ['localhost', 'http://localhost:5173'],
    ['127.0.0.1', 'https://127.0.0.1:8443'],
    ['[::1]', 'https://[::1]:8443'],
  ])('sends %s back to its own origin', (hostname, origin) => {
    expect(redirectTarget(config(), { hostname, origin })).toBe(`${origin}/`);
  });

  it('treats a configured host or IP as local, in either IPv6 spelling', () => {
    const withLocals = config({ localHosts: ['192.168.1.20', 'DevBox', '::2'] });
    expect(redirectTarget(withLocals, { hostname: '192.168.1.20', origin: 'https://192.168.1.20:8443' })).toBe(
      'https://192.168.1.20:8443/',
    );
    expect(redirectTarget(withLocals, { hostname: 'devbox', origin: 'http://devbox:5173' })).toBe('http://devbox:5173/');
    expect(isLocalHost('[::2]', withLocals.localHosts)).toBe(true);
  });

  it('sends every other host to the production site', () => {
    expect(redirectTarget(config(), { hostname: 'd111.cloudfront.net', origin: 'https://d111.cloudfront.net' })).toBe(
      'https://ctpo.example.ca/',
    );
    expect(redirectTarget(config(), { hostname: '192.168.1.20', origin: 'https://192.168.1.20' })).toBe('https://ctpo.example.ca/');
    expect(isLocalHost('localhost.evil.example', [])).toBe(false);
  });

  it('configures Amplify for code + PKCE with one redirect target for sign-in and sign-out', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    configureAmplify(config(), { hostname: 'ctpo.example.ca', origin: 'https://ctpo.example.ca' });
    expect(Amplify.getConfig().Auth?.Cognito).toEqual({
      userPoolId: 'ca-central-1_Local',
      userPoolClientId: 'ctpolocalwebclient',
      userPoolEndpoint: 'https://localhost:8443/',
      loginWith: {
        oauth: {
          domain: 'localhost:8443',
          scopes: ['openid', 'email', 'profile'],
          redirectSignIn: ['https://ctpo.example.ca/'],
          redirectSignOut: ['https://ctpo.example.ca/'],
          responseType: 'code',
        },
      },
    });
  });

  it('leaves the Cognito endpoint alone in production', () => {
    configureAmplify(config({ userPoolEndpoint: undefined }), { hostname: 'ctpo.example.ca', origin: 'https://ctpo.example.ca' });
    expect(Amplify.getConfig().Auth?.Cognito).not.toHaveProperty('userPoolEndpoint');
  });
});
