// Arabic lays the page out right to left (<html dir="rtl">). That only works when the stylesheets
// say "start" and "end" (margin-inline-start, inset-inline-start, text-align: start...), never
// "left" and "right"; this finds any that do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PHYSICAL = [
  /\b(margin|padding|border)-(left|right)(-[a-z]+)?\s*:/,
  /(^|[\s;{])(left|right)\s*:/,
  /\b(text-align|float|clear)\s*:\s*(left|right)\b/,
  /\b(border-(top|bottom)-(left|right)-radius)\s*:/,
];

function physicalDeclarations(css: string): string[] {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => PHYSICAL.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());
}

// Four-value shorthands set left and right separately; flag them when the two differ.
function unevenShorthands(css: string): string[] {
  return [...css.matchAll(/\b(margin|padding|inset):\s*([^;]+);/g)]
    .filter((match) => {
      const parts = (match[2] ?? '').trim().split(/\s+(?![^(]*\))/);
      return parts.length === 4 && parts[1] !== parts[3];
    })
    .map((match) => match[0]);
}

const stylesheets = readdirSync('web/src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.css'));

describe('the stylesheets', () => {
  it('are found', () => {
    expect(stylesheets.length).toBeGreaterThan(5);
  });

  it.each(stylesheets)('%s uses logical properties only, so right-to-left pages mirror', (file) => {
    const css = readFileSync(join('web/src', file), 'utf8');
    expect([...physicalDeclarations(css), ...unevenShorthands(css)]).toEqual([]);
  });

  it('flags physical properties and uneven shorthands', () => {
    expect(physicalDeclarations('a { margin-left: 1px; }\nb { left: 0; }\nc { text-align: right; }\nd { padding-inline-start: 1px; }')).toHaveLength(3);
    expect(unevenShorthands('a { padding: 1px 2px 1px 3px; } b { margin: 0 calc(1px + 2px) 0 calc(1px + 2px); }')).toEqual(['padding: 1px 2px 1px 3px;']);
  });
});
