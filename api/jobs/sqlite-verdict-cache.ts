// The local verdict cache: a table beside the jobs in the same SQLite file (its own connection),
// keyed by site, org unit, kind (item or link) and key. Holds digests, findings and link answers
// only (verdict-cache.ts). Each save writes the run's entries, then drops what breaks the caps:
// entries not written for EXPIRY_DAYS, a course's oldest entries past its cap, the least recently
// written courses past MAX_COURSES.
import { DatabaseSync } from 'node:sqlite';
import {
  emptyCourseVerdicts,
  EXPIRY_MS,
  MAX_COURSES,
  MAX_ITEMS_PER_COURSE,
  MAX_LINKS_PER_COURSE,
  MAX_VALUE_BYTES,
  type CourseVerdicts,
  type VerdictCache,
} from '../engine/verdict-cache.ts';

const schema = `
CREATE TABLE IF NOT EXISTS verdicts (
  site_url TEXT NOT NULL,
  org_unit_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('item', 'link')),
  key TEXT NOT NULL,
  digest TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  written_at TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (site_url, org_unit_id, kind, key)
) STRICT;
CREATE INDEX IF NOT EXISTS verdicts_written ON verdicts (written_at);
`;

interface VerdictRow {
  kind: 'item' | 'link';
  key: string;
  digest: string;
  checked_at: string;
  value: string;
}

export interface SqliteVerdictCache extends VerdictCache {
  close(): void;
}

export function openSqliteVerdictCache(options: { path: string; now?: () => Date }): SqliteVerdictCache {
  const now = options.now ?? (() => new Date());
  const db = new DatabaseSync(options.path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(schema);
  const selectCourse = db.prepare('SELECT kind, key, digest, checked_at, value FROM verdicts WHERE site_url = ? AND org_unit_id = ? AND written_at >= ?');
  const upsert = db.prepare(`
    INSERT INTO verdicts (site_url, org_unit_id, kind, key, digest, checked_at, written_at, value)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (site_url, org_unit_id, kind, key)
    DO UPDATE SET digest = excluded.digest, checked_at = excluded.checked_at, written_at = excluded.written_at, value = excluded.value`);
  const expire = db.prepare('DELETE FROM verdicts WHERE written_at < ?');
  // Past a course's cap, the entries written longest ago go first (then those checked longest ago).
  const trimCourse = db.prepare(`
    DELETE FROM verdicts WHERE rowid IN (
      SELECT rowid FROM verdicts WHERE site_url = ? AND org_unit_id = ? AND kind = ?
      ORDER BY written_at DESC, checked_at DESC LIMIT -1 OFFSET ?)`);
  const trimCourses = db.prepare(`
    DELETE FROM verdicts WHERE (site_url, org_unit_id) IN (
      SELECT site_url, org_unit_id FROM verdicts GROUP BY site_url, org_unit_id
      ORDER BY max(written_at) DESC LIMIT -1 OFFSET ?)`);
  const cutoff = () => new Date(now().getTime() - EXPIRY_MS).toISOString();

  return {
    async load({ site, orgUnitId }) {
      const verdicts = emptyCourseVerdicts();
      for (const row of selectCourse.all(site, orgUnitId, cutoff()) as unknown as VerdictRow[]) {
        let value: unknown;
        try {
          value = JSON.parse(row.value);
        } catch {
          continue;
        }
        if (row.kind === 'item') verdicts.items.set(row.key, { digest: row.digest, checkedAt: row.checked_at, value });
        else verdicts.links.set(row.key, { checkedAt: row.checked_at, value });
      }
      return verdicts;
    },

    async save({ site, orgUnitId }, checked: CourseVerdicts) {
      const writtenAt = now().toISOString();
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const [kind, entries] of [['item', checked.items], ['link', checked.links]] as const) {
          for (const [key, entry] of entries) {
            const value = JSON.stringify(entry.value);
            // A value past the cap is not kept: the item is simply judged again next run.
            if (Buffer.byteLength(value) > MAX_VALUE_BYTES) continue;
            upsert.run(site, orgUnitId, kind, key, 'digest' in entry ? entry.digest : '', entry.checkedAt, writtenAt, value);
          }
        }
        expire.run(cutoff());
        trimCourse.run(site, orgUnitId, 'item', MAX_ITEMS_PER_COURSE);
        trimCourse.run(site, orgUnitId, 'link', MAX_LINKS_PER_COURSE);
        trimCourses.run(MAX_COURSES);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },

    close() {
      db.close();
    },
  };
}
