import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '@/lib/runtime-config';
import { TEST_CONFIG } from './support/fake-backend';

describe('parseRuntimeConfig', () => {
  it('accepts the local stack config and fills the defaults', () => {
    const result = parseRuntimeConfig({
      region: 'ca-central-1',
      userPoolId: 'ca-central-1_Local',
      userPoolClientId: 'ctpolocalwebclient',
      oauthDomain: 'localhost:8443',
      userPoolEndpoint: 'https://localhost:8443/',
      siteUrl: 'https://localhost:8443/',
      apiUrl: 'https://localhost:8443',
    });
    expect(result).toEqual({
      ok: true,
      config: {
        region: 'ca-central-1',
        userPoolId: 'ca-central-1_Local',
        userPoolClientId: 'ctpolocalwebclient',
        oauthDomain: 'localhost:8443',
        userPoolEndpoint: 'https://localhost:8443/',
        siteUrl: 'https://localhost:8443/',
        apiUrl: 'https://localhost:8443',
        jobStatusApiUrl: 'https://localhost:8443',
        pollIntervalMs: 10000,
        localHosts: [],
      },
    });
  });

  it('normalises addresses: site origin with one trailing slash, API bases without one', () => {
    const result = parseRuntimeConfig({
      ...TEST_CONFIG,
      siteUrl: 'https://ctpo.example.ca',
      apiUrl: 'https://api.example.ca/prod/',
      jobStatusApiUrl: 'https://status.example.ca/',
      pollIntervalMs: 2500,
      localHosts: [' 192.168.1.20 ', 'devbox'],
      i18n: { defaultLanguage: 'fr-CA', batchUrl: 'https://i18n.example.ca/batch' },
    });
    expect(result.ok && result.config).toMatchObject({
      siteUrl: 'https://ctpo.example.ca/',
      apiUrl: 'https://api.example.ca/prod',
      jobStatusApiUrl: 'https://status.example.ca',
      pollIntervalMs: 2500,
      localHosts: ['192.168.1.20', 'devbox'],
      i18n: { defaultLanguage: 'fr-CA', batchUrl: 'https://i18n.example.ca/batch' },
    });
  });

  it('accepts a hosted login domain with a port and a path, never a scheme', () => {
    expect(parseRuntimeConfig({ ...TEST_CONFIG, oauthDomain: 'ctpo.auth.ca-central-1.amazoncognito.com' }).ok).toBe(true);
    expect(parseRuntimeConfig({ ...TEST_CONFIG, oauthDomain: 'localhost:4566/_aws/cognito-idp' }).ok).toBe(true);
    expect(parseRuntimeConfig({ ...TEST_CONFIG, oauthDomain: 'https://ctpo.auth.ca-central-1.amazoncognito.com' })).toEqual({
      ok: false,
      problems: [{ kind: 'notHost', field: 'oauthDomain' }],
    });
  });

  it('lists every missing required field', () => {
    expect(parseRuntimeConfig({})).toEqual({
      ok: false,
      problems: ['region', 'userPoolId', 'userPoolClientId', 'oauthDomain', 'siteUrl', 'apiUrl'].map((field) => ({
        kind: 'missing',
        field,
      })),
    });
  });

  it.each([
    [{ region: '' }, { kind: 'notText', field: 'region' }],
    [{ userPoolClientId: 42 }, { kind: 'notText', field: 'userPoolClientId' }],
    [{ userPoolId: 'Local' }, { kind: 'notPoolId', field: 'userPoolId' }],
    [{ siteUrl: 'ctpo.example.ca' }, { kind: 'notUrl', field: 'siteUrl' }],
    [{ apiUrl: 'javascript:alert(1)' }, { kind: 'notUrl', field: 'apiUrl' }],
    [{ jobStatusApiUrl: 'ftp://files.example.ca' }, { kind: 'notUrl', field: 'jobStatusApiUrl' }],
    [{ userPoolEndpoint: 'not a url' }, { kind: 'notUrl', field: 'userPoolEndpoint' }],
    [{ pollIntervalMs: 10 }, { kind: 'notPollInterval', field: 'pollIntervalMs' }],
    [{ pollIntervalMs: '10000' }, { kind: 'notPollInterval', field: 'pollIntervalMs' }],
    [{ pollIntervalMs: 1500.5 }, { kind: 'notPollInterval', field: 'pollIntervalMs' }],
    [{ localHosts: 'devbox' }, { kind: 'notHostList', field: 'localHosts' }],
    [{ localHosts: ['devbox', ''] }, { kind: 'notHostList', field: 'localHosts' }],
    [{ i18n: 'en' }, { kind: 'notSection', field: 'i18n' }],
    [{ i18n: { collectionUrl: 'nope' } }, { kind: 'notUrl', field: 'i18n.collectionUrl' }],
    [{ i18n: { defaultLanguage: 7 } }, { kind: 'notText', field: 'i18n.defaultLanguage' }],
  ])('rejects %j', (override, problem) => {
    expect(parseRuntimeConfig({ ...TEST_CONFIG, ...override })).toEqual({ ok: false, problems: [problem] });
  });

  it.each([null, [], 'config', 42])('rejects a file that is not an object: %j', (raw) => {
    expect(parseRuntimeConfig(raw)).toEqual({ ok: false, problems: [{ kind: 'notObject' }] });
  });
});
