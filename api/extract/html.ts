// One parse of a topic's HTML, shared by the content, link and accessibility checks: the visible
// text, images and videos, and every address a browser loads or a reader follows from the page
// (resolved against the page or its <base href>), each with the element and attribute it is in.
// What a browser never loads or follows is left out: comments, <template> and <noscript> content,
// text in <code>, <pre> or <script>, data-* attributes, javascript: and data: addresses.
import parseSrcset from '@prettier/parse-srcset';
import { DomUtils, Parser, parseDocument } from 'htmlparser2';
import { styleAttributeReferences, stylesheetReferences, type CssReference } from './css.ts';

type Document = ReturnType<typeof parseDocument>;
export type HtmlElement = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/** A `#fragment` a link points to inside its address, with where the author wrote it. */
export interface FragmentReference {
  /** The fragment as written, without `#`. */
  fragment: string;
  element: string;
  text?: string;
  count?: number;
}

export interface LinkOccurrence {
  /** The address as written in the page. */
  raw: string;
  /** Absolute http(s) address without its #fragment, or null when it is not a valid address. */
  url: string | null;
  /** Where the author finds it: element and attribute (`a href`, `img srcset`, `div style url()`). */
  element: string;
  /** Loaded by the page itself (image, frame, media, style) rather than followed by a click. */
  embedded: boolean;
  /** The link text or image alt the author sees in the editor, when there is one. */
  text?: string;
  /** How many times the address occurs in the item, when more than once. */
  count?: number;
  /** The PDF page or slide it is on, for a link inside a document. */
  page?: number;
  /** The fragments links in the item point to within this address. */
  fragments?: FragmentReference[];
  /** Only ever sent by a form with method=post: a server refusing GET (405) is expected. */
  postOnly?: boolean;
  /** A stylesheet the page applies: the course's own are read for their addresses too. */
  stylesheet?: boolean;
  /** Why an invalid address can never work, when there is more to say than "not valid". */
  problem?: 'local-file';
}

/** An address with a scheme that is not the web's (mail, phone, apps): never fetched. */
export interface OtherSchemeLink {
  raw: string;
  scheme: string;
  element: string;
  text?: string;
  /** For mailto: whether every recipient is a valid e-mail address. */
  valid: boolean;
}

export interface ParsedTopic {
  document: Document;
  /** Visible text, whitespace collapsed. */
  text: string;
  /** Each distinct web address once (the first place it appears), with its count and fragments. */
  links: LinkOccurrence[];
  /** Links to this very page with a fragment (`#part2`), checked against `anchors`. */
  ownFragments: FragmentReference[];
  /** Addresses with other schemes (mailto:, tel:, app links), each distinct one once. */
  otherSchemes: OtherSchemeLink[];
  /** The ids and `<a name>`s of the page: where a fragment can point. */
  anchorNames: Set<string>;
  images: HtmlElement[];
  videos: HtmlElement[];
  anchors: HtmlElement[];
  /** Images, media, frames or objects: a page with these is not empty even without text. */
  hasMedia: boolean;
}

/** domutils 4 no longer exports domhandler's isTag; this is the same test. */
export function isElement(node: unknown): node is HtmlElement {
  return typeof node === 'object' && node !== null && 'attribs' in node && 'name' in node && 'children' in node;
}

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
// Content a browser with scripting on never renders or loads.
const INERT = new Set(['template', 'noscript']);
// Not addresses at all: scripts, inline data, blank pages.
const IGNORED_SCHEMES = new Set(['javascript', 'vbscript', 'data', 'blob', 'about']);
// Brightspace fills these in when it shows a page; the org unit one is known, the others are not.
const REPLACE_STRING = /\{[A-Za-z]+\}/;
const SCHEME = /^([a-zA-Z][a-zA-Z\d+.-]*):/;
// A Windows path pasted as a link (C:\Users\... or C:/Users/...), which a URL parser reads as a scheme.
const WINDOWS_PATH = /^[a-zA-Z]:[\\/]/;
// https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address, widened to letters and
// digits of any script (internationalised addresses, RFC 6531).
const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)*$/u;

/** What an address written in a page is, resolved as a browser would. */
export type Address =
  | { kind: 'web'; url: string; fragment: string | null }
  | { kind: 'invalid'; problem?: 'local-file' }
  | { kind: 'other-scheme'; scheme: string; valid: boolean }
  | { kind: 'none' };

function levenshteinAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** True when every recipient of a mailto: address is a valid e-mail address (none is also valid). */
export function isValidMailto(raw: string): boolean {
  const body = raw.trim().slice('mailto:'.length);
  const [recipients = '', query = ''] = body.split('?', 2);
  let addresses: string[];
  try {
    addresses = decodeURIComponent(recipients).split(',').map((address) => address.trim());
    const to = new URLSearchParams(query).getAll('to').flatMap((value) => value.split(',').map((address) => address.trim()));
    addresses = [...addresses, ...to].filter((address) => address !== '');
  } catch {
    return false;
  }
  // "mailto:?subject=..." opens a message with no recipient yet, which is allowed; a bare "mailto:" is not.
  if (addresses.length === 0) return query.trim() !== '';
  return addresses.every((address) => EMAIL.test(address));
}

/** Classifies and resolves an address for this page. */
export function classifyAddress(raw: string, base: URL, orgUnitId: number): Address {
  let value = raw.trim();
  if (value === '') return { kind: 'none' };
  if (WINDOWS_PATH.test(value)) return { kind: 'invalid', problem: 'local-file' };
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    if (IGNORED_SCHEMES.has(scheme)) return { kind: 'none' };
    if (scheme === 'file') return { kind: 'invalid', problem: 'local-file' };
    // A mistyped web address ("htps://", "htp://") is broken, not an app link.
    if ((levenshteinAtMostOne(scheme, 'http') || levenshteinAtMostOne(scheme, 'https')) && /^[a-z]+:\/\//i.test(value)) return { kind: 'invalid' };
    return { kind: 'other-scheme', scheme, valid: scheme === 'mailto' ? isValidMailto(value) : true };
  }
  value = value.replace(/\{orgunitid\}/gi, String(orgUnitId));
  if (REPLACE_STRING.test(value)) return { kind: 'none' };
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return { kind: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'none' };
  if (url.hostname === '') return { kind: 'invalid' };
  const fragment = url.hash === '' ? (value.endsWith('#') ? '' : null) : url.hash.slice(1);
  url.hash = '';
  return { kind: 'web', url: url.href, fragment };
}

/**
 * Resolves an address as a browser would for this page. Returns undefined for addresses that are
 * not web links (mail, phone, apps, scripts, in-page anchors, unknown replace strings), null for
 * an address that cannot work.
 */
export function resolveAddress(raw: string, base: URL, orgUnitId: number): string | null | undefined {
  if (raw.trim().startsWith('#')) return undefined;
  const address = classifyAddress(raw, base, orgUnitId);
  if (address.kind === 'web') return address.url;
  return address.kind === 'invalid' ? null : undefined;
}

/** The URLs of a srcset, as the HTML standard's parser reads it (commas inside URLs included). */
export function srcsetUrls(value: string): string[] {
  if (value.trim() === '') return [];
  try {
    return parseSrcset(value).map((candidate) => candidate.source.value);
  } catch {
    // The parser refuses a whole srcset for one bad descriptor, where a browser drops only that
    // candidate: read the candidates one by one (they are almost always ", "-separated).
    return value.split(/,\s+/).flatMap((part) => {
      try {
        return parseSrcset(part).map((candidate) => candidate.source.value);
      } catch {
        return [];
      }
    });
  }
}

/** The address in a `<meta http-equiv="refresh">`, by the HTML standard's declarative refresh steps. */
export function metaRefreshUrl(content: string): string | null {
  const whitespace = /^[\t\n\f\r ]*/;
  let rest = content.replace(whitespace, '');
  const time = /^[\d.]*/.exec(rest)![0];
  if (time === '') return null;
  rest = rest.slice(time.length);
  if (rest !== '' && !/^[;,\t\n\f\r ]/.test(rest)) return null;
  rest = rest.replace(whitespace, '');
  if (rest.startsWith(';') || rest.startsWith(',')) rest = rest.slice(1);
  rest = rest.replace(whitespace, '');
  // "url=" is optional; quotes around the address are dropped only where the standard drops them.
  const named = /^url[\t\n\f\r ]*=[\t\n\f\r ]*/i.exec(rest);
  let url = rest;
  if (named || !/^u/i.test(rest)) {
    url = named ? rest.slice(named[0].length) : rest;
    const quote = url[0];
    if (quote === '"' || quote === "'") {
      const end = url.indexOf(quote, 1);
      url = url.slice(1, end === -1 ? undefined : end);
    }
  }
  url = url.trim();
  return url === '' ? null : url;
}

// Attributes that hold one address, by element; `*` for every element.
const ADDRESS_ATTRIBUTES: Record<string, { attribute: string; embedded: boolean }[]> = {
  a: [{ attribute: 'href', embedded: false }, { attribute: 'xlink:href', embedded: false }],
  area: [{ attribute: 'href', embedded: false }],
  img: [{ attribute: 'src', embedded: true }, { attribute: 'longdesc', embedded: false }],
  input: [{ attribute: 'src', embedded: true }, { attribute: 'formaction', embedded: false }],
  button: [{ attribute: 'formaction', embedded: false }],
  form: [{ attribute: 'action', embedded: false }],
  source: [{ attribute: 'src', embedded: true }],
  video: [{ attribute: 'src', embedded: true }, { attribute: 'poster', embedded: true }],
  audio: [{ attribute: 'src', embedded: true }],
  track: [{ attribute: 'src', embedded: true }],
  iframe: [{ attribute: 'src', embedded: true }, { attribute: 'longdesc', embedded: false }],
  frame: [{ attribute: 'src', embedded: true }, { attribute: 'longdesc', embedded: false }],
  embed: [{ attribute: 'src', embedded: true }],
  object: [{ attribute: 'data', embedded: true }],
  script: [{ attribute: 'src', embedded: true }],
  link: [{ attribute: 'href', embedded: true }],
  blockquote: [{ attribute: 'cite', embedded: false }],
  q: [{ attribute: 'cite', embedded: false }],
  ins: [{ attribute: 'cite', embedded: false }],
  del: [{ attribute: 'cite', embedded: false }],
  html: [{ attribute: 'manifest', embedded: true }],
  command: [{ attribute: 'icon', embedded: true }],
  // SVG inside HTML: images, links and reused shapes, in SVG 2 (href) and SVG 1.1 (xlink:href).
  image: [{ attribute: 'href', embedded: true }, { attribute: 'xlink:href', embedded: true }],
  use: [{ attribute: 'href', embedded: true }, { attribute: 'xlink:href', embedded: true }],
  feimage: [{ attribute: 'href', embedded: true }, { attribute: 'xlink:href', embedded: true }],
};
// Obsolete but still drawn by browsers as a background image.
const BACKGROUND_ELEMENTS = new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);
// Link relations that name an origin to connect to early, not a resource to load.
const CONNECTION_HINTS = new Set(['dns-prefetch', 'preconnect']);

interface Found {
  raw: string;
  element: string;
  embedded: boolean;
  text?: string;
  postOnly?: boolean;
  stylesheet?: boolean;
}

function visibleText(document: Document): string {
  const parts: string[] = [];
  const walk = (nodes: Document['children']) => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push((node as { data: string }).data);
      else if ('children' in node && !(isElement(node) && INVISIBLE.has(node.name))) walk(node.children);
    }
  };
  walk(document.children);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function relTokens(element: HtmlElement): string[] {
  return (element.attribs.rel ?? '').toLowerCase().split(/[\t\n\f\r ]+/).filter((token) => token !== '');
}

function cssFound(references: CssReference[], element: string): Found[] {
  return references.map((reference) => ({
    raw: reference.raw,
    element: `${element} ${reference.rule}`,
    embedded: true,
    ...(reference.rule === '@import' ? { stylesheet: true } : {}),
  }));
}

/** Every address one element names, in the order a reader meets them. */
function addressesOf(element: HtmlElement): Found[] {
  const found: Found[] = [];
  const { name, attribs } = element;
  const textOf = () => (name === 'a' ? accessibleText(element) : name === 'area' || name === 'img' || name === 'input' ? attribs.alt?.trim() : name === 'iframe' || name === 'frame' ? attribs.title?.trim() : undefined);

  if (name === 'link') {
    const rel = relTokens(element);
    if (rel.length > 0 && rel.every((token) => CONNECTION_HINTS.has(token))) return found;
    if (attribs.href !== undefined) found.push({ raw: attribs.href, element: 'link href', embedded: true, ...(rel.includes('stylesheet') ? { stylesheet: true } : {}) });
    if (attribs.imagesrcset !== undefined) {
      for (const url of srcsetUrls(attribs.imagesrcset)) found.push({ raw: url, element: 'link imagesrcset', embedded: true });
    }
  } else if (name === 'meta') {
    const content = attribs.content ?? '';
    if ((attribs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
      const url = metaRefreshUrl(content);
      if (url !== null) found.push({ raw: url, element: 'meta refresh', embedded: false });
    } else if (/^https?:\/\//i.test(content.trim()) && (attribs.property !== undefined || attribs.name !== undefined || attribs.itemprop !== undefined)) {
      // Open Graph, Twitter card and similar metadata: absolute addresses only, as sites publish them.
      found.push({ raw: content, element: 'meta content', embedded: false });
    }
  } else {
    const text = textOf();
    const postOnly = () => (name === 'form' ? attribs.method : (attribs.formmethod ?? findForm(element)?.attribs.method))?.toLowerCase() === 'post';
    for (const { attribute, embedded } of ADDRESS_ATTRIBUTES[name] ?? []) {
      const value = attribs[attribute];
      if (value === undefined) continue;
      if (name === 'input' && attribute === 'src' && (attribs.type ?? '').toLowerCase() !== 'image') continue;
      // A form's own submit address: an empty action submits to the page itself.
      if ((attribute === 'action' || attribute === 'formaction') && value.trim() === '') continue;
      const isForm = attribute === 'action' || attribute === 'formaction';
      found.push({ raw: value, element: `${name} ${attribute}`, embedded, ...(text ? { text } : {}), ...(isForm && postOnly() ? { postOnly: true } : {}) });
    }
  }
  if ((name === 'img' || name === 'source') && attribs.srcset !== undefined) {
    const text = name === 'img' ? attribs.alt?.trim() : undefined;
    for (const url of srcsetUrls(attribs.srcset)) found.push({ raw: url, element: `${name} srcset`, embedded: true, ...(text ? { text } : {}) });
  }
  if (BACKGROUND_ELEMENTS.has(name) && attribs.background !== undefined && attribs.background.trim() !== '') {
    found.push({ raw: attribs.background, element: `${name} background`, embedded: true });
  }
  if (attribs.style !== undefined) found.push(...cssFound(styleAttributeReferences(attribs.style), `${name} style`));
  return found;
}

function findForm(element: HtmlElement): HtmlElement | undefined {
  const id = element.attribs.form;
  let node: unknown = element.parent;
  if (id !== undefined) {
    let root: unknown = element;
    while (isElement(root) && root.parent) root = root.parent;
    return DomUtils.findOne((candidate) => candidate.name === 'form' && candidate.attribs.id === id, (root as { children: HtmlElement[] }).children, true) ?? undefined;
  }
  while (isElement(node)) {
    if (node.name === 'form') return node;
    node = node.parent;
  }
  return undefined;
}

function styleText(element: HtmlElement): string {
  return element.children.map((child) => (child.type === 'text' ? (child as { data: string }).data : '')).join('');
}

/** Parses a topic. `pageUrl` is where Brightspace serves it, the base of its relative links. */
export function parseTopic(html: string, pageUrl: URL, orgUnitId: number): ParsedTopic {
  const document = parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true });
  const all: HtmlElement[] = [];
  const collect = (nodes: Document['children']) => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      all.push(node);
      if (!INERT.has(node.name)) collect(node.children);
    }
  };
  collect(document.children);

  // The first <base> with an href sets the base of every relative address, as in a browser.
  let base = pageUrl;
  const baseElement = all.find((element) => element.name === 'base' && element.attribs.href !== undefined);
  if (baseElement !== undefined) {
    try {
      base = new URL(baseElement.attribs.href!.trim(), pageUrl);
    } catch {
      // A broken <base> is ignored, as browsers do.
    }
  }

  const anchorNames = new Set<string>();
  const found: Found[] = [];
  for (const element of all) {
    if (element.attribs.id !== undefined && element.attribs.id !== '') anchorNames.add(element.attribs.id);
    if (element.name === 'a' && element.attribs.name !== undefined && element.attribs.name !== '') anchorNames.add(element.attribs.name);
    found.push(...addressesOf(element));
    if (element.name === 'style') found.push(...cssFound(stylesheetReferences(styleText(element)), 'style'));
  }

  const pageAddress = new URL(pageUrl.href);
  pageAddress.hash = '';
  const links = new Map<string, LinkOccurrence>();
  const ownFragments: FragmentReference[] = [];
  const otherSchemes = new Map<string, OtherSchemeLink>();
  const addFragment = (into: FragmentReference[], fragment: string, item: Found) => {
    const existing = into.find((reference) => reference.fragment === fragment);
    if (existing) existing.count = (existing.count ?? 1) + 1;
    else into.push({ fragment, element: item.element, ...(item.text ? { text: item.text } : {}) });
  };

  for (const item of found) {
    const address = classifyAddress(item.raw, base, orgUnitId);
    if (address.kind === 'none') continue;
    if (address.kind === 'other-scheme') {
      const key = item.raw.trim();
      if (!otherSchemes.has(key)) otherSchemes.set(key, { raw: key, scheme: address.scheme, element: item.element, valid: address.valid, ...(item.text ? { text: item.text } : {}) });
      continue;
    }
    if (address.kind === 'web' && address.url === pageAddress.href && address.fragment !== null) {
      addFragment(ownFragments, address.fragment, item);
      continue;
    }
    const url = address.kind === 'web' ? address.url : null;
    const key = url ?? `invalid:${item.raw}`;
    let link = links.get(key);
    if (link === undefined) {
      link = { raw: item.raw, url, element: item.element, embedded: item.embedded };
      if (item.text) link.text = item.text;
      if (item.postOnly) link.postOnly = true;
      if (item.stylesheet) link.stylesheet = true;
      if (address.kind === 'invalid' && address.problem) link.problem = address.problem;
      links.set(key, link);
    } else {
      link.count = (link.count ?? 1) + 1;
      if (item.embedded && !link.embedded) Object.assign(link, { embedded: true, element: item.element });
      if (!item.postOnly) delete link.postOnly;
      if (item.stylesheet) link.stylesheet = true;
      if (link.text === undefined && item.text) link.text = item.text;
    }
    if (address.kind === 'web' && address.fragment !== null) addFragment((link.fragments ??= []), address.fragment, item);
  }

  const byTag = (tag: string) => all.filter((element) => element.name === tag);
  const images = all.filter((element) => element.name === 'img' || (element.name === 'input' && (element.attribs.type ?? '').toLowerCase() === 'image'));
  return {
    document,
    text: visibleText(document),
    links: [...links.values()],
    ownFragments,
    otherSchemes: [...otherSchemes.values()],
    anchorNames,
    images,
    videos: byTag('video'),
    anchors: byTag('a').filter((element) => element.attribs.href !== undefined),
    hasMedia: all.some((element) => ['img', 'video', 'audio', 'iframe', 'object', 'embed', 'svg', 'canvas', 'math'].includes(element.name)),
  };
}

/** The addresses of one of the course's stylesheets, resolved against the stylesheet itself. */
export function stylesheetLinks(css: string, sheetUrl: URL, orgUnitId: number): LinkOccurrence[] {
  const links = new Map<string, LinkOccurrence>();
  for (const reference of stylesheetReferences(css)) {
    const address = classifyAddress(reference.raw, sheetUrl, orgUnitId);
    if (address.kind !== 'web' && address.kind !== 'invalid') continue;
    const url = address.kind === 'web' ? address.url : null;
    const key = url ?? `invalid:${reference.raw}`;
    const existing = links.get(key);
    if (existing) existing.count = (existing.count ?? 1) + 1;
    else links.set(key, { raw: reference.raw, url, element: `stylesheet ${reference.rule}`, embedded: true, ...(reference.rule === '@import' ? { stylesheet: true } : {}) });
  }
  return [...links.values()];
}

/** The ids and `<a name>`s of an HTML or SVG document: where a fragment can point. */
export function anchorNamesOf(html: string): Set<string> {
  const names = new Set<string>();
  // A streaming parse: only the attributes are needed, not a tree of the whole page.
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (attribs.id) names.add(attribs.id);
        if (name === 'a' && attribs.name) names.add(attribs.name);
        // Rendered Markdown (GitHub and others) gives headings a permalink anchor whose own
        // href is the fragment readers use, while the id carries a prefix its script strips.
        if (name === 'a' && attribs.id && attribs.href?.startsWith('#') && attribs.href.length > 1) names.add(attribs.href.slice(1));
      },
    },
    { lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.end(html);
  return names;
}

/**
 * Whether a fragment names a place in a page with these anchors, as a browser looks for it: the
 * fragment as written, then percent-decoded; empty and `top` always mean the top of the page.
 */
export function fragmentFound(fragment: string, anchors: Set<string>): boolean {
  if (fragment === '' || fragment.toLowerCase() === 'top') return true;
  let decoded = fragment;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    // kept as written
  }
  // GitHub prefixes the ids of rendered Markdown with "user-content-" and resolves links without it.
  return [fragment, decoded].some((name) => anchors.has(name) || anchors.has(`user-content-${name}`));
}

/**
 * Fragments that are not places in a page: text fragments (`#:~:text=`), state kept by the page's
 * scripts (`#/route`, `#!/route`, `#code/...`, `#key=value`). They are never reported missing.
 */
export function isClientStateFragment(fragment: string): boolean {
  return fragment.includes(':~:') || fragment.startsWith('/') || fragment.startsWith('!') || fragment.includes('=') || fragment.includes('/');
}

/** Text a screen reader would announce for an element: aria-label, else its text and image alts. */
export function accessibleText(element: HtmlElement): string {
  const label = element.attribs['aria-label'];
  if (label !== undefined && label.trim() !== '') return label.replace(/\s+/g, ' ').trim();
  const parts: string[] = [];
  const walk = (nodes: HtmlElement['children']) => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push((node as { data: string }).data);
      else if (isElement(node)) {
        if (node.name === 'img' && node.attribs.alt) parts.push(node.attribs.alt);
        if (!INVISIBLE.has(node.name)) walk(node.children);
      }
    }
  };
  walk(element.children);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
