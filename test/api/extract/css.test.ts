import { describe, expect, it } from 'vitest';
import { styleAttributeReferences, stylesheetReferences } from '../../../api/extract/css.ts';

const raws = (css: string) => stylesheetReferences(css).map((reference) => `${reference.rule} ${reference.raw}`);

describe('stylesheetReferences', () => {
  it.each([
    ['unquoted', '.a { background: url(plain.png) }', 'url() plain.png'],
    ['double quotes', '.a { background: url("double.png") }', 'url() double.png'],
    ['single quotes', ".a { background: url('single.png') }", 'url() single.png'],
    ['spaces inside the parentheses', '.a { background: url(  spaced.png  ) }', 'url() spaced.png'],
    ['an escaped parenthesis', '.a { background: url(paren\\).png) }', 'url() paren).png'],
    ['an escaped quote in a string', ".a { background: url('it\\'s.png') }", "url() it's.png"],
    ['a hex escape', '.a { background: url("caf\\e9.png") }', 'url() café.png'],
    ['capitals', '.a { background: URL(caps.png) }', 'url() caps.png'],
    ['fonts', '@font-face { font-family: X; src: url(font.woff2) format("woff2"), local(Arial) }', 'url() font.woff2'],
    ['cursors', '.a { cursor: url(hand.cur), pointer }', 'url() hand.cur'],
    ['inside @media', '@media print { .a { background-image: url(print.png) } }', 'url() print.png'],
    ['image-set strings', '.a { background-image: image-set("one.png" 1x, url(two.png) 2x) }', 'url() one.png'],
    ['custom properties', ':root { --hero: url(hero.png) }', 'url() hero.png'],
    ['@import with a string', '@import "a.css";', '@import a.css'],
    ['@import with url()', '@import url(b.css) screen;', '@import b.css'],
    ['@import after @charset and @layer', '@charset "utf-8"; @layer base; @import "c.css";', '@import c.css'],
  ])('finds %s', (_what, css, expected) => {
    expect(raws(css)).toContain(expected);
  });

  it.each([
    ['a comment', '/* .a { background: url(commented.png) } */ .b { color: red }'],
    ['a string that only mentions url(', '.a::before { content: "url(text.png)" }'],
    ['a data: URI kept whole', '.a { background: url(data:image/png;base64,iVBORw0KGgo=) }'],
    ['an in-document reference', '.a { filter: url(#blur) }'],
    ['an empty url()', '.a { background: url() }'],
    ['a namespace', '@namespace svg url(http://www.w3.org/2000/svg);'],
    ['an @import a browser ignores (after a rule)', '.a { color: red } @import "late.css";'],
    ['a malformed url() a browser drops', '.a { background: url(bad url.png) }'],
  ])('finds no address in %s', (_what, css) => {
    expect(raws(css).filter((reference) => !reference.includes('data:'))).toEqual([]);
  });

  it('keeps a data: URI as one address (never split at its commas)', () => {
    expect(raws('.a { background: url(data:image/svg+xml,%3Csvg%3E,%3C/svg%3E) }')).toEqual(['url() data:image/svg+xml,%3Csvg%3E,%3C/svg%3E']);
  });
});

describe('styleAttributeReferences', () => {
  it('reads the declarations of a style attribute', () => {
    expect(styleAttributeReferences("background: url(a.png), url('b.png'); color: red").map((reference) => reference.raw)).toEqual(['a.png', 'b.png']);
  });

  it('ignores @import and text that only mentions url(', () => {
    expect(styleAttributeReferences('@import "x.css"; content: "url(y.png)"')).toEqual([]);
    expect(styleAttributeReferences('color: red')).toEqual([]);
  });
});
