// The seed's layout constants live in CSS, which jsdom does not lay out; this checks the
// stylesheets still say them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = (path: string) => readFileSync(`web/src/${path}`, 'utf8').replace(/\s+/g, ' ');

function block(source: string, selector: string): string {
  const start = source.indexOf(`${selector} {`);
  expect(start, `${selector} is styled`).toBeGreaterThanOrEqual(0);
  return source.slice(start, source.indexOf('}', start));
}

describe('design constants', () => {
  it('help dialog: at most 600px wide, 90% width, at most 80vh high', () => {
    const dialog = block(css('components/dialog/dialog.css'), '.dialog');
    expect(dialog).toContain('max-width: 600px;');
    expect(dialog).toContain('width: 90%;');
    expect(dialog).toContain('max-height: 80vh;');
  });

  it('alerts at most 710px wide, animations 200ms, tooltip delay 300ms and width 17.5rem, icon tiers 18/24/30px', () => {
    const root = block(css('app/app.css'), ':root');
    expect(root).toContain('--ctpo-alert-max-width: 710px;');
    expect(root).toContain('--ctpo-duration: 200ms;');
    expect(root).toContain('--ctpo-tooltip-delay: 300ms;');
    expect(root).toContain('--ctpo-tooltip-max-width: 17.5rem;');
    expect(root).toContain('--ctpo-icon-tier1: 18px; --ctpo-icon-tier2: 24px; --ctpo-icon-tier3: 30px;');
    expect(block(css('components/status-banner/status-banner.css'), '.status-banner')).toContain(
      'max-width: var(--ctpo-alert-max-width);',
    );
  });

  it('turns animations off under prefers-reduced-motion', () => {
    const app = css('app/app.css');
    const reduced = app.slice(app.indexOf('@media (prefers-reduced-motion: reduce)'));
    expect(reduced).toContain('animation-duration: 0s !important;');
    expect(reduced).toContain('transition-duration: 0s !important;');
  });

  it('shows a visible focus ring', () => {
    expect(block(css('app/app.css'), ':focus-visible')).toContain('outline: 2px solid var(--ctpo-color-focus);');
  });
});
