// The one address guard every server-side fetch passes (docs/design.md, "Rules that hold
// everywhere"): only web addresses, no credentials in them, and no private, loopback, link-local,
// metadata or reserved destinations; the local-use switch lets loopback and private ones through,
// never link-local, metadata, multicast or reserved ones.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';

export interface AddressPolicy {
  /**
   * The local-use switch (`--allow-private-targets`, `CTPO_ALLOW_PRIVATE_TARGETS=1`): loopback and
   * private addresses pass; link-local, metadata, multicast and reserved ones never do.
   */
  allowPrivateTargets: boolean;
  /** Plain http is accepted for links; the Brightspace site itself must be https. */
  allowHttp: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Tests inject their own to fake DNS answers. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

// IANA's special-purpose registries (RFC 6890 and successors): none of these is a public website.
const blockedV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes the broadcast address
];
const blockedV6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): a network's own translator, to its own IPv4 space
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local, includes the AWS metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
];

const blockList = new BlockList();
for (const [network, prefix] of blockedV4) blockList.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of blockedV6) blockList.addSubnet(network, prefix, 'ipv6');

// Refused even with the local-use switch: nothing a course could link to lives there, and the cloud
// metadata services do (the credentials of the machine CTPO runs on).
const neverV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: AWS, Azure, GCP and OpenStack metadata, the ECS task metadata
  ['100.100.100.200', 32], // Alibaba Cloud metadata
  ['192.0.0.0', 24], // IETF protocol assignments, includes Oracle Cloud's 192.0.0.192
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const neverV6: [string, number][] = [
  ['::', 128],
  // Local-use NAT64: where the IPv4 address sits depends on the network's layout, so what it reaches
  // (the metadata service included) cannot be told.
  ['64:ff9b:1::', 48],
  ['fd00:ec2::', 32], // the AWS metadata service and its other endpoints on IPv6 (fd00:ec2::254)
  ['fe80::', 10],
  ['ff00::', 8],
];
const neverList = new BlockList();
for (const [network, prefix] of neverV4) neverList.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of neverV6) neverList.addSubnet(network, prefix, 'ipv6');

// Host names that never lead to a public site, whatever DNS says.
const localNames = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/i;

/**
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4): the embedded address is
 * where the packet really goes, so it is the one to check.
 */
function embeddedIpv4(address: string): string | null {
  const words = expandIpv6(address);
  if (!words) return null;
  const fromWords = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 5) && words[5] === 0xffff) return fromWords(words[6]!, words[7]!);
  // (:: and ::1 are not compatible forms of 0.0.0.0 and 0.0.0.1 but addresses of their own.)
  if (zeros(0, 6) && words[6] !== 0) return fromWords(words[6]!, words[7]!);
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return fromWords(words[6]!, words[7]!);
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix, /96 only). The local-use prefix 64:ff9b:1::/48
  // (RFC 8215) may carry its IPv4 address in any RFC 6052 layout, so reading its last 32 bits would
  // pass a private address as a public one (64:ff9b:1:a00:1:0:808:808 holds 10.0.x.x, not 8.8.8.8):
  // it is refused whole instead (blockedV6, neverV6).
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return fromWords(words[6]!, words[7]!);
  // 2002:aabb:ccdd::/48 (6to4)
  if (words[0] === 0x2002) return fromWords(words[1]!, words[2]!);
  return null;
}

/** The eight 16-bit words of an IPv6 address, or null when it is not one. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (isIP(text) !== 6) return null;
  // A trailing dotted quad becomes two words.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headWords = head === '' ? [] : head.split(':');
  const tailWords = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headWords.length - tailWords.length;
  const words = [...headWords, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailWords];
  return words.length === 8 ? words.map((word) => Number.parseInt(word, 16)) : null;
}

function inList(list: BlockList, address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.split('%')[0] ?? '');
  if (family === 4) return list.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIpv4(bare);
  if (v4 !== null && list.check(v4, 'ipv4')) return true;
  return list.check(bare.split('%')[0]!, 'ipv6');
}

/** True when the address is private, loopback, link-local, metadata, multicast or reserved. */
export function isBlockedAddress(address: string): boolean {
  return inList(blockList, address);
}

/** True when the address is refused even with the local-use switch: link-local, metadata, multicast, reserved. */
export function isNeverAllowedAddress(address: string): boolean {
  return inList(neverList, address);
}

/** Whether a policy refuses an address: all blocked ones, or with the local-use switch the never-allowed ones. */
export function refusesAddress(policy: AddressPolicy, address: string): boolean {
  return policy.allowPrivateTargets ? isNeverAllowedAddress(address) : isBlockedAddress(address);
}

/**
 * Whether a site lives on this machine or its network: it has addresses, and every one of them is one
 * only the local-use switch lets through (loopback, private). The switch is for such a site (the demo
 * course, a test instance of Brightspace on the LAN): a course of a real site's pages must never reach
 * the QA person's loopback or LAN services through the browser or the link checker, so for a public
 * site the switch does not apply (docs/security.md). A name that does not resolve is not private.
 */
export async function isPrivateSite(url: URL, resolve: Resolver = systemResolver): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((entry) => entry.address);
    } catch {
      return false;
    }
  }
  return addresses.length > 0 && addresses.every((address) => isBlockedAddress(address) && !isNeverAllowedAddress(address));
}

function notAllowed(host: string): AppError {
  return new AppError('address_not_allowed', msg('error.address.not-allowed', { host }));
}

/**
 * Parses a web address and applies the rules that need no DNS: the scheme, no credentials, and no
 * blocked IP literal in any spelling (the WHATWG parser already turns `2130706433`, `0177.0.0.1`,
 * `0x7f.1` and `127.1` into `127.0.0.1`, which is what a socket would connect to).
 */
export function assertAllowedUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('invalid_input', msg('error.address.invalid'));
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new AppError('invalid_input', msg(policy.allowHttp ? 'error.address.http-or-https' : 'error.address.https-only'));
  }
  if (url.username !== '' || url.password !== '') {
    throw new AppError('invalid_input', msg('error.address.credentials'));
  }
  if (url.hostname === '') {
    throw new AppError('invalid_input', msg('error.address.no-host'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(host) !== 0) {
    if (refusesAddress(policy, host)) throw notAllowed(url.hostname);
  } else if (!policy.allowPrivateTargets && localNames.test(host)) {
    throw notAllowed(url.hostname);
  }
  return url;
}

/**
 * Resolves the host and checks every address it has: one private answer is enough to refuse, since
 * the connection could use any of them. The connect-time check in guarded-http.ts repeats this on the
 * addresses a socket really uses, so a DNS answer that changes in between cannot slip through.
 */
export async function assertAllowedDestination(
  url: URL,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (refusesAddress(policy, host)) throw notAllowed(url.hostname);
    return;
  }
  const addresses = await resolve(host);
  if (addresses.length === 0 || addresses.some((entry) => refusesAddress(policy, entry.address))) {
    throw notAllowed(url.hostname);
  }
}
