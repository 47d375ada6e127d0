// What makes the page readable on a phone and in every script lives in CSS, which jsdom does not
// lay out (test/e2e/trust-app.e2e.ts measures it in Chromium); this checks the stylesheets say it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = (path: string) => readFileSync(`web/src/${path}`, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ');

function block(source: string, selector: string): string {
  const start = source.indexOf(`${selector} {`);
  expect(start, `${selector} is styled`).toBeGreaterThanOrEqual(0);
  return source.slice(start, source.indexOf('}', start));
}

describe('the stylesheets', () => {
  it('keep a dialog’s Close on screen: its actions stick to the bottom of the dialog, which fits what a phone shows', () => {
    const dialog = css('components/dialog/dialog.css');
    expect(block(dialog, '.dialog__actions')).toMatch(/position: sticky; inset-block-end: 0;/);
    expect(block(dialog, '.dialog__actions')).toContain('background: #fff;');
    expect(block(dialog, '.dialog')).toContain('max-height: 80dvh;');
  });

  it('break Japanese, Chinese and Korean between phrases, never inside a word', () => {
    const app = css('app/app.css');
    expect(block(app, ':lang(ja), :lang(zh), :lang(ko)')).toContain('line-break: strict;');
    expect(app).toContain('} :lang(ko) { word-break: keep-all; }');
    expect(block(app, ':lang(ja) :is(h1, h2, h3, legend, button, label, dt)')).toContain('word-break: auto-phrase;');
    expect(app).toMatch(/@supports not \(word-break: auto-phrase\) \{ :lang\(ja\) :is\(h1, h2, h3\), :lang\(zh\) :is\(h1, h2, h3\) \{ word-break: keep-all;/);
  });

  it('start an address or a number at its own start in a right-to-left page', () => {
    expect(block(css('components/text-input/text-input.css'), ".text-input__control[dir='ltr']")).toContain('text-align: start;');
  });
});
