import { describe, expect, it } from 'vitest';
import { localSwitchFor } from '../../../api/brightspace/session.ts';
import { isAppError } from '../../../api/errors.ts';
import {
  assertAllowedDestination,
  assertAllowedUrl,
  isBlockedAddress,
  isPrivateSite,
  type AddressPolicy,
  type Resolver,
} from '../../../api/net/address-guard.ts';

const strict: AddressPolicy = { allowPrivateTargets: false, allowHttp: true };
const local: AddressPolicy = { allowPrivateTargets: true, allowHttp: true };

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return isAppError(error) ? error.code : 'not-an-app-error';
  }
  return undefined;
}

describe('assertAllowedUrl', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/', // decimal
    'http://0177.0.0.1/', // octal
    'http://017700000001/', // octal, one number
    'http://0x7f.1/', // hex, short form
    'http://0x7f000001/',
    'http://127.1/', // short form
    'http://127.0.0.1./',
    'http://%31%32%37.0.0.1/', // percent-encoded
    'http://0.0.0.0/',
    'http://0/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://100.64.0.1/', // carrier-grade NAT
    'http://169.254.169.254/latest/meta-data/', // cloud metadata
    'http://198.18.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[::]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/', // IPv4-mapped IPv6
    'http://[::ffff:a9fe:a9fe]/', // mapped metadata address, hex spelling
    'http://[::127.0.0.1]/', // IPv4-compatible IPv6
    'http://[64:ff9b::10.0.0.1]/', // NAT64 of a private address
    'http://[64:ff9b:1:a00:1:0:808:808]/', // local-use NAT64 (10.0.x.x in the /48 layout; its last 32 bits read 8.8.8.8)
    'http://[64:ff9b:1::8.8.8.8]/', // local-use NAT64, whatever it seems to carry
    'http://[2002:c0a8:0101::]/', // 6to4 of 192.168.1.1
    'http://[fe80::1]/', // link-local
    'http://[fd00:ec2::254]/', // AWS metadata over IPv6
    'http://[fc00::1]/',
    'http://[ff02::1]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://app.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/',
  ])('refuses %s', (url) => {
    expect(codeOf(() => assertAllowedUrl(url, strict))).toBe('address_not_allowed');
  });

  it.each([
    'https://example.com/page',
    'http://example.com/',
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/', // mapped, but public
    'https://localhost.example.com/', // only looks local
    'https://172.32.0.1/', // just outside 172.16/12
    'https://100.128.0.1/', // just outside 100.64/10
  ])('lets the public address %s through', (url) => {
    expect(assertAllowedUrl(url, strict).href).toBe(new URL(url).href);
  });

  it('refuses credentials in the address, whatever the policy', () => {
    expect(codeOf(() => assertAllowedUrl('https://user:secret@example.com/', local))).toBe('invalid_input');
    expect(codeOf(() => assertAllowedUrl('https://user@example.com/', local))).toBe('invalid_input');
  });

  it('refuses other schemes and text that is not an address', () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://x/', 'not a url', '']) {
      expect(codeOf(() => assertAllowedUrl(url, local))).toBe('invalid_input');
    }
  });

  it('refuses http when the policy asks for https', () => {
    const httpsOnly: AddressPolicy = { allowPrivateTargets: false, allowHttp: false };
    expect(codeOf(() => assertAllowedUrl('http://example.com/', httpsOnly))).toBe('invalid_input');
    expect(assertAllowedUrl('https://example.com/', httpsOnly).protocol).toBe('https:');
  });

  it('lets loopback and private addresses through only with the local-use switch', () => {
    expect(assertAllowedUrl('http://127.0.0.1:8444/', local).port).toBe('8444');
    expect(assertAllowedUrl('http://localhost:8444/', local).hostname).toBe('localhost');
    expect(assertAllowedUrl('http://10.1.2.3/', local).hostname).toBe('10.1.2.3');
    expect(assertAllowedUrl('http://[::1]:8444/', local).port).toBe('8444');
    expect(codeOf(() => assertAllowedUrl('http://localhost:8444/', strict))).toBe('address_not_allowed');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.170.2/v2/credentials', // the ECS task's credentials
    'http://2852039166/', // 169.254.169.254 as one number
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[64:ff9b:1::a9fe:a9fe]/', // local-use NAT64: what it reaches depends on the network's layout
  ])('refuses %s even with the local-use switch', (url) => {
    expect(codeOf(() => assertAllowedUrl(url, local))).toBe('address_not_allowed');
  });

  it('says what was refused in plain words', () => {
    try {
      assertAllowedUrl('http://169.254.169.254/', strict);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        '169.254.169.254 is a private, local or reserved network address. CTPO only visits public websites.',
      );
    }
  });
});

describe('isBlockedAddress', () => {
  it('knows the edges of the ranges', () => {
    expect(isBlockedAddress('172.15.255.255')).toBe(false);
    expect(isBlockedAddress('172.16.0.0')).toBe(true);
    expect(isBlockedAddress('100.63.255.255')).toBe(false);
    expect(isBlockedAddress('100.127.255.255')).toBe(true);
    expect(isBlockedAddress('fe80::1%eth0')).toBe(true);
    expect(isBlockedAddress('2001:4860:4860::8888')).toBe(false);
    expect(isBlockedAddress('not-an-address')).toBe(true);
  });
});

describe('NAT64', () => {
  it('reads the well-known /96 prefix as the IPv4 address it carries, and nothing else of 64:ff9b::/32 that way', () => {
    expect(isBlockedAddress('64:ff9b::8.8.8.8')).toBe(false);
    expect(isBlockedAddress('64:ff9b::a00:1')).toBe(true);
    // A public-looking last 32 bits in the local-use prefix: refused, since the layout decides what it carries.
    expect(isBlockedAddress('64:ff9b:1:a00:1:0:808:808')).toBe(true);
    expect(isBlockedAddress('64:ff9b:1:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(isBlockedAddress('64:ff9b:2::808:808')).toBe(false);
  });
});

describe('the local-use switch holds for a site on this machine or its network only', () => {
  const answers = (map: Record<string, string[]>): Resolver => async (host) => {
    const found = map[host];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const resolve = answers({
    'school.example.com': ['93.184.216.34'],
    'demo.example': ['127.0.0.1', '::1'],
    'lan.example': ['10.0.0.7', 'fd12:3456::1'],
    'mixed.example': ['10.0.0.7', '93.184.216.34'],
    'metadata.example': ['169.254.169.254'],
    'nothing.example': [],
  });

  it('counts a site private when every address it has is loopback or private', async () => {
    expect(await isPrivateSite(new URL('http://127.0.0.1:8444/'))).toBe(true);
    expect(await isPrivateSite(new URL('http://[::1]:8444/'))).toBe(true);
    expect(await isPrivateSite(new URL('https://demo.example/'), resolve)).toBe(true);
    expect(await isPrivateSite(new URL('https://lan.example/'), resolve)).toBe(true);
  });

  it('counts a site public when any address is public, never-allowed, or when it has none', async () => {
    expect(await isPrivateSite(new URL('https://school.example.com/'), resolve)).toBe(false);
    expect(await isPrivateSite(new URL('https://mixed.example/'), resolve)).toBe(false);
    expect(await isPrivateSite(new URL('https://metadata.example/'), resolve)).toBe(false);
    expect(await isPrivateSite(new URL('https://nothing.example/'), resolve)).toBe(false);
    expect(await isPrivateSite(new URL('https://unknown.example/'), resolve)).toBe(false);
    expect(await isPrivateSite(new URL('http://169.254.169.254/'))).toBe(false);
    expect(await isPrivateSite(new URL('http://8.8.8.8/'))).toBe(false);
  });

  it('applies the switch to a private site, and never to a public one', async () => {
    expect(await localSwitchFor('http://demo.example:8444/d2l/home', true, resolve)).toBe(true);
    expect(await localSwitchFor('https://lan.example', true, resolve)).toBe(true);
    expect(await localSwitchFor('https://demo.example', false, resolve)).toBe(false);
    expect(await localSwitchFor('https://school.example.com', true, resolve)).toBe(false);
    expect(await localSwitchFor('http://school.example.com', true, resolve)).toBe(false);
    expect(await localSwitchFor('https://mixed.example', true, resolve)).toBe(false);
    expect(await localSwitchFor('not an address', true, resolve)).toBe(false);
  });
});

describe('assertAllowedDestination', () => {
  const answers = (map: Record<string, string[]>): Resolver => async (host) =>
    (map[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a host whose DNS answer is private', async () => {
    const resolve = answers({ 'intranet.example.com': ['10.0.0.7'] });
    await expect(assertAllowedDestination(new URL('https://intranet.example.com/'), strict, resolve)).rejects.toMatchObject({
      code: 'address_not_allowed',
    });
  });

  it('refuses when any one of several answers is private', async () => {
    const resolve = answers({ 'mixed.example.com': ['93.184.216.34', '::1'] });
    await expect(assertAllowedDestination(new URL('https://mixed.example.com/'), strict, resolve)).rejects.toMatchObject({
      code: 'address_not_allowed',
    });
  });

  it('accepts a host with only public answers', async () => {
    const resolve = answers({ 'www.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    await expect(assertAllowedDestination(new URL('https://www.example.com/'), strict, resolve)).resolves.toBeUndefined();
  });

  it('with the local-use switch, lets loopback and private answers through, never link-local or metadata ones', async () => {
    const resolve = answers({
      'course.example': ['127.0.0.1'],
      'intranet.example': ['10.0.0.7', 'fd12:3456::1'],
      'metadata.example': ['169.254.169.254'],
      'metadata6.example': ['fd00:ec2::254'],
      'sneaky.example': ['127.0.0.1', '169.254.170.2'],
      'mapped.example': ['::ffff:169.254.169.254'],
    });
    await expect(assertAllowedDestination(new URL('http://course.example/'), local, resolve)).resolves.toBeUndefined();
    await expect(assertAllowedDestination(new URL('http://intranet.example/'), local, resolve)).resolves.toBeUndefined();
    for (const host of ['metadata.example', 'metadata6.example', 'sneaky.example', 'mapped.example']) {
      await expect(assertAllowedDestination(new URL(`http://${host}/`), local, resolve), host).rejects.toMatchObject({ code: 'address_not_allowed' });
    }
  });
});
