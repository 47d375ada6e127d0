// One run's use of the verdict cache (verdict-cache.ts): which kept verdicts it may reuse and what it
// keeps for the next run. A verdict is reused only when the digest of exactly what was judged (the
// item's bytes, what judged it, and for a rendered page every resource it loaded) is the same; a
// link's answer only while young and good. Everything else is judged again from the fresh bytes.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { enhancedContrastFromEnv } from '../a11y/a11y-runner.ts';
import { AXE_VERSION, type AxeOutcome } from '../a11y/axe-rules.ts';
import { ibmVersion } from '../a11y/ibm-rules.ts';
import type { PageCheckOutcome } from '../a11y/page-checks/page-facts.ts';
import type { LoadedResource } from '../a11y/resource-digests.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { DocumentResult } from '../extract/document-runner.ts';
import type { ReportReuse } from '../report/model.ts';
import type { LinkProbe } from '../net/link-checker.ts';
import type { DocumentReader } from '../sources/documents.ts';
import type { CourseTestInput } from './types.ts';
import { emptyCourseVerdicts, MAX_VALUE_BYTES, type CachedVerdict, type CourseVerdicts } from './verdict-cache.ts';

/** A link's good answer is reused for a day unless the run says otherwise. */
export const DEFAULT_LINK_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A page's outcome in the accessibility runner, as kept: what it loaded comes with it. */
export interface KeptPage {
  outcome: AxeOutcome & PageCheckOutcome;
  resources: LoadedResource[];
  browserVersion?: string;
}

/** An item whose verdict was reused, with when it was made, for the report. */
export interface ReusedItem {
  key: string;
  /** The item's place; null for a document, which is named by its address. */
  place: ItemPlace | null;
  url: string | null;
  checkedAt: string;
}

function sha256(...parts: (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(typeof part === 'string' ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength));
    hash.update('\u0000');
  }
  return hash.digest('base64url');
}

const codeDigests = new Map<string, string>();

/**
 * A digest of the source of the code under a folder of api/ (every .ts file, in name order): any
 * change in how items are judged there is a new judge, without a version to remember to bump.
 */
export function codeDigest(folder: 'a11y' | 'extract'): string {
  let known = codeDigests.get(folder);
  if (known !== undefined) return known;
  const root = new URL(`../${folder}/`, import.meta.url);
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(new URL(relative, root), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(`${relative}${entry.name}/`);
      else if (entry.name.endsWith('.ts')) files.push(`${relative}${entry.name}`);
    }
  };
  walk('');
  known = sha256(...files.flatMap((file) => [file, readFileSync(new URL(file, root))]));
  codeDigests.set(folder, known);
  return known;
}

export interface RunVerdictsOptions {
  /** What the previous runs kept (empty for a first run, or a run that checks everything again). */
  previous: CourseVerdicts;
  now: Date;
  linkMaxAgeMs?: number;
  /** The Brightspace site: its own addresses need the session and are always asked again. */
  siteOrigin: URL;
  /** What judges pages (engines, their rules and settings, the run's language) and documents. */
  pageJudges: string;
  documentJudges: string;
}

/**
 * A maximum age as a person writes it: a number of seconds, or with a unit (`90s`, `30m`, `12h`,
 * `1d`); null for anything else. `0` asks every link again.
 */
export function parseMaxAge(text: string): number | null {
  const found = /^(\d{1,9})\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (found === null) return null;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(found[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(found[1]) * unit;
}

export class RunVerdicts {
  readonly #options: RunVerdictsOptions;
  /** What this run checked now, to keep for the next. */
  readonly checked: CourseVerdicts = emptyCourseVerdicts();
  /** Items judged now, and those whose verdict was reused (with when it was made). */
  checkedNow = 0;
  readonly reused: ReusedItem[] = [];
  /** Links whose earlier answer stood. */
  linksReused = 0;

  constructor(options: RunVerdictsOptions) {
    this.#options = options;
  }

  pageDigest(item: { html: string; url: URL; whole: boolean; title: string }): string {
    return sha256('page', this.#options.pageJudges, item.url.href, item.whole ? 'whole' : 'fragment', item.title, item.html);
  }

  documentDigest(type: string, bytes: Uint8Array): string {
    return sha256('document', this.#options.documentJudges, type, bytes);
  }

  /** The kept value of an item whose digest is the same, or undefined. */
  kept(key: string, digest: string): CachedVerdict | undefined {
    const cached = this.#options.previous.items.get(key);
    return cached?.digest === digest ? cached : undefined;
  }

  /** An item's kept verdict stood: it is kept again as it was (its `checkedAt` too). */
  reuse(key: string, cached: CachedVerdict, place: ItemPlace | null, url: string | null): void {
    this.reused.push({ key, place, url, checkedAt: cached.checkedAt });
    this.checked.items.set(key, cached);
  }

  /** An item judged now: kept for the next run when its value is small enough. */
  record(key: string, digest: string, value: KeptPage | DocumentResult): void {
    this.checkedNow++;
    if (JSON.stringify(value).length > MAX_VALUE_BYTES) return;
    this.checked.items.set(key, { digest, checkedAt: this.#options.now.toISOString(), value });
  }

  /** A link's earlier answer when it may stand: a good answer (no redirect, no look-alike page) younger than the maximum age. */
  keptLink(url: string): LinkProbe | undefined {
    const cached = this.#options.previous.links.get(url);
    if (cached === undefined) return undefined;
    const age = this.#options.now.getTime() - Date.parse(cached.checkedAt);
    if (!(age >= 0 && age < (this.#options.linkMaxAgeMs ?? DEFAULT_LINK_MAX_AGE_MS))) return undefined;
    if (!reusableProbe(cached.value)) return undefined;
    this.linksReused++;
    this.checked.links.set(url, cached);
    return cached.value;
  }

  /** A link asked now: a good answer is kept (anything else is asked again next run anyway). */
  recordLink(url: string, probe: LinkProbe): void {
    if (new URL(url).origin === this.#options.siteOrigin.origin || !reusableProbe(probe)) return;
    this.checked.links.set(url, { checkedAt: this.#options.now.toISOString(), value: probe });
  }

  /** Names the browser in the pages judged now (known once the run's browser has said it). */
  setBrowserVersion(version: string | undefined): void {
    if (version === undefined) return;
    for (const [key, kept] of this.checked.items) {
      if (key.startsWith('page:') && kept.checkedAt === this.#options.now.toISOString()) (kept.value as KeptPage).browserVersion ??= version;
    }
  }

  /** The browser a reused page was judged in, for a run that started none. */
  get reusedBrowserVersion(): string | undefined {
    for (const { key } of this.reused) {
      const version = (this.checked.items.get(key)?.value as KeptPage | undefined)?.browserVersion;
      if (key.startsWith('page:') && version !== undefined) return version;
    }
    return undefined;
  }

  /** Reads documents through the reader, reusing the facts of a file whose bytes and reader are the same. */
  documentReader(reader: DocumentReader): DocumentReader {
    return {
      limits: reader.limits,
      read: async (type, bytes, url) => {
        const key = `document:${url}`;
        const digest = this.documentDigest(type, bytes);
        const cached = this.kept(key, digest);
        if (cached !== undefined) {
          this.reuse(key, cached, null, url);
          return cached.value as DocumentResult;
        }
        const result = await reader.read(type, bytes, url);
        // A file that could not be read (a time limit, a crash) is tried again next run.
        if (result.ok) this.record(key, digest, result);
        else this.checkedNow++;
        return result;
      },
    };
  }

  /** What the report says of the reuse: counts, since when, and each reused item in the course's order of reading. */
  summary(): ReportReuse {
    return {
      checked: this.checkedNow,
      reused: this.reused.length,
      since: this.reusedSince,
      items: this.reused.map(({ place, url, checkedAt }) => ({
        moduleId: place?.moduleId ?? null,
        topicId: place?.topicId ?? null,
        itemType: place?.itemType ?? null,
        itemId: place?.itemId ?? null,
        url,
        checkedAt,
      })),
    };
  }

  /** The oldest time a reused verdict was made, or null when none was reused. */
  get reusedSince(): string | null {
    return this.reused.reduce<string | null>((oldest, { checkedAt }) => (oldest === null || checkedAt < oldest ? checkedAt : oldest), null);
  }
}

/** Only a plain good answer stands: broken, unreachable, unverifiable, redirected and look-alike answers are always asked again. */
function reusableProbe(value: unknown): value is LinkProbe {
  const probe = value as Partial<LinkProbe> | null;
  // A temporary redirect may lead elsewhere tomorrow, or to a page this run's account may not read.
  return probe !== null && typeof probe === 'object' && probe.outcome === 'ok' && probe.movedTo === null && probe.redirected === undefined && probe.lookalike === undefined;
}

/** What judges a run's pages and documents: the engines, their code, rules and settings, the renderer (the browser's build), the run's language. */
export function runJudges(input: CourseTestInput, mode: string, renderer: string, documentLimits: object): { pageJudges: string; documentJudges: string } {
  const options = input.options ?? {};
  const extra = options.judges ?? '';
  return {
    pageJudges: JSON.stringify([codeDigest('a11y'), AXE_VERSION, mode === 'browser' ? ibmVersion() : '', mode, renderer, input.language ?? 'en', options.enhancedContrast ?? enhancedContrastFromEnv(), extra]),
    documentJudges: JSON.stringify([codeDigest('extract'), documentLimits, extra]),
  };
}
