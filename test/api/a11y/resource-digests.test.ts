// What an item written into a kept document counts as loaded: what it asked for, and what the
// document had from earlier items that the item uses, with every stylesheet's fonts and backgrounds
// once it uses a stylesheet the document had; never what only earlier items used.
import { describe, expect, it } from 'vitest';
import { answerDigest, resourcesOfItem, stylesheetImports, type LoadedResource } from '../../../api/a11y/resource-digests.ts';

const entry = (url: string, resourceType: string): LoadedResource => ({ url, method: 'GET', resourceType, digest: `d:${url}` });
const documentLoaded = [
  entry('https://s/course.css', 'stylesheet'),
  entry('https://s/week.css', 'stylesheet'),
  entry('https://s/font.woff2', 'font'),
  entry('https://s/background.png', 'image'),
  entry('https://s/earlier-figure.png', 'image'),
  entry('https://s/figure.png', 'image'),
  entry('https://s/frame.html', 'document'),
];
const urls = (found: LoadedResource[]) => found.map((item) => item.url);

describe('resourcesOfItem', () => {
  it('counts what the item asked for and what it uses of what the document had', () => {
    const used = { images: ['https://s/figure.png'], sheets: [], embeds: ['https://s/frame.html#top'], opaqueSheets: false };
    expect(urls(resourcesOfItem(documentLoaded, new Set(['https://s/background.png']), used))).toEqual(['https://s/background.png', 'https://s/figure.png', 'https://s/frame.html']);
  });

  it('counts every font and background once the item uses a stylesheet the document had, but not another page’s stylesheet or images', () => {
    const used = { images: ['https://s/figure.png'], sheets: ['https://s/course.css'], embeds: [], opaqueSheets: false };
    expect(urls(resourcesOfItem(documentLoaded, new Set(), used))).toEqual([
      'https://s/course.css', 'https://s/font.woff2', 'https://s/background.png', 'https://s/earlier-figure.png', 'https://s/figure.png',
    ]);
  });

  it('counts every stylesheet too when one it uses cannot be read for its imports', () => {
    const used = { images: [], sheets: [], embeds: [], opaqueSheets: true };
    expect(urls(resourcesOfItem(documentLoaded, new Set(), used))).toContain('https://s/week.css');
  });

  it('tells answers apart by status, type, bytes and refusal', () => {
    const ok = { ok: true as const, status: 200, headers: { 'content-type': 'text/css' }, body: Buffer.from('a') };
    const digests = new Set([
      answerDigest(ok),
      answerDigest({ ...ok, body: Buffer.from('b') }),
      answerDigest({ ...ok, status: 404 }),
      answerDigest({ ...ok, headers: { 'content-type': 'text/plain' } }),
      answerDigest({ ok: false, error: 'failed' }),
      answerDigest({ ok: false, error: 'timedout' }),
    ]);
    expect(digests.size).toBe(6);
    expect(answerDigest({ ...ok, body: Buffer.from('a') })).toBe(answerDigest(ok));
  });
});

describe('stylesheetImports', () => {
  it('reads every form of @import, absolute, and skips what is no address', () => {
    const text = `@import url("fonts.css"); @import url(print.css) print; @import 'https://cdn.example/base.css' layer(base);\n@IMPORT "../up.css";`;
    expect(stylesheetImports(text, 'https://s/css/course.css')).toEqual([
      'https://s/css/fonts.css', 'https://s/css/print.css', 'https://cdn.example/base.css', 'https://s/up.css',
    ]);
  });
});
