// The local verdict cache: what a save keeps comes back from a load of the same course only, a later
// save replaces an entry, and the caps hold: entries not written for the expiry go, a course past
// its cap loses its oldest entries first, and the least recently written courses go past the last.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteVerdictCache, type SqliteVerdictCache } from '../../../api/jobs/sqlite-verdict-cache.ts';
import { EXPIRY_MS, MAX_COURSES, MAX_ITEMS_PER_COURSE, MAX_VALUE_BYTES, emptyCourseVerdicts, type CourseVerdicts } from '../../../api/engine/verdict-cache.ts';

let dir: string;
let clock: Date;
let cache: SqliteVerdictCache;
const course = { site: 'https://school.example.edu', orgUnitId: 6606 };

function verdicts(items: [string, string][], links: string[] = []): CourseVerdicts {
  const found = emptyCourseVerdicts();
  for (const [key, digest] of items) found.items.set(key, { digest, checkedAt: clock.toISOString(), value: { findings: [key] } });
  for (const url of links) found.links.set(url, { checkedAt: clock.toISOString(), value: { outcome: 'ok' } });
  return found;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-verdicts-'));
  clock = new Date('2026-11-01T00:00:00Z');
  cache = openSqliteVerdictCache({ path: join(dir, 'jobs.sqlite'), now: () => clock });
});

afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite verdict cache', () => {
  it('keeps a course apart from others and replaces an entry on a later save', async () => {
    expect(await cache.load(course)).toEqual(emptyCourseVerdicts());
    await cache.save(course, verdicts([['page:a', 'd1'], ['page:b', 'd2']], ['https://example.org/ok']));
    await cache.save({ ...course, orgUnitId: 7 }, verdicts([['page:a', 'other']]));
    await cache.save(course, verdicts([['page:a', 'd3']]));
    const loaded = await cache.load(course);
    expect([...loaded.items].map(([key, entry]) => [key, entry.digest])).toEqual([['page:a', 'd3'], ['page:b', 'd2']]);
    expect(loaded.items.get('page:a')?.value).toEqual({ findings: ['page:a'] });
    expect([...loaded.links.keys()]).toEqual(['https://example.org/ok']);
    expect((await cache.load({ ...course, site: 'https://other.example.edu' })).items.size).toBe(0);
  });

  it('drops entries not written for the expiry, and values past the size cap', async () => {
    const big = emptyCourseVerdicts();
    big.items.set('page:big', { digest: 'x', checkedAt: clock.toISOString(), value: 'x'.repeat(MAX_VALUE_BYTES + 1) });
    await cache.save(course, big);
    await cache.save(course, verdicts([['page:old', 'd']]));
    clock = new Date(clock.getTime() + EXPIRY_MS + 1);
    await cache.save(course, verdicts([['page:new', 'd']]));
    expect([...(await cache.load(course)).items.keys()]).toEqual(['page:new']);
  });

  it('keeps a course within its cap, dropping the entries written longest ago', async () => {
    await cache.save(course, verdicts([['page:first', 'd']]));
    clock = new Date(clock.getTime() + 1000);
    await cache.save(course, verdicts(Array.from({ length: MAX_ITEMS_PER_COURSE }, (_, index) => [`page:${index}`, 'd'] as [string, string])));
    const items = (await cache.load(course)).items;
    expect(items.size).toBe(MAX_ITEMS_PER_COURSE);
    expect(items.has('page:first')).toBe(false);
  });

  it('keeps at most MAX_COURSES courses, the least recently written going first', async () => {
    for (let index = 0; index <= MAX_COURSES; index++) {
      clock = new Date(clock.getTime() + 1000);
      await cache.save({ ...course, orgUnitId: index }, verdicts([['page:a', 'd']]));
    }
    expect((await cache.load({ ...course, orgUnitId: 0 })).items.size).toBe(0);
    expect((await cache.load({ ...course, orgUnitId: 1 })).items.size).toBe(1);
    expect((await cache.load({ ...course, orgUnitId: MAX_COURSES })).items.size).toBe(1);
  });
});
