// The local dismissal store: a table beside the jobs in the same SQLite file (its own connection).
// A dismissal belongs to one user and one course and has no expiry: it stays until it is restored.
import { DatabaseSync } from 'node:sqlite';
import type { Dismissal } from '../report/model.ts';
import type { DismissalStore } from './types.ts';

const schema = `
CREATE TABLE IF NOT EXISTS dismissals (
  owner TEXT NOT NULL,
  site_url TEXT NOT NULL,
  org_unit_id INTEGER NOT NULL,
  fingerprint TEXT NOT NULL,
  dismissed_by TEXT NOT NULL,
  dismissed_at TEXT NOT NULL,
  reason TEXT,
  PRIMARY KEY (owner, site_url, org_unit_id, fingerprint)
) STRICT;
`;

interface DismissalRow {
  fingerprint: string;
  dismissed_by: string;
  dismissed_at: string;
  reason: string | null;
}

export interface SqliteDismissalStore extends DismissalStore {
  close(): void;
}

export function openSqliteDismissalStore(options: { path: string }): SqliteDismissalStore {
  const db = new DatabaseSync(options.path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(schema);
  const selectCourse = db.prepare(
    'SELECT fingerprint, dismissed_by, dismissed_at, reason FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ? ORDER BY dismissed_at, fingerprint',
  );
  const upsert = db.prepare(`
    INSERT INTO dismissals (owner, site_url, org_unit_id, fingerprint, dismissed_by, dismissed_at, reason)
    VALUES (:owner, :siteUrl, :orgUnitId, :fingerprint, :by, :at, :reason)
    ON CONFLICT (owner, site_url, org_unit_id, fingerprint)
    DO UPDATE SET dismissed_by = excluded.dismissed_by, dismissed_at = excluded.dismissed_at, reason = excluded.reason`);
  const deleteOne = db.prepare('DELETE FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ? AND fingerprint = ?');

  return {
    async list(owner, course) {
      const rows = selectCourse.all(owner, course.siteUrl, course.orgUnitId) as unknown as DismissalRow[];
      return rows.map((row) => {
        const dismissal: Dismissal = { fingerprint: row.fingerprint, by: row.dismissed_by, at: row.dismissed_at };
        if (row.reason !== null) dismissal.reason = row.reason;
        return dismissal;
      });
    },

    async put(owner, course, dismissal) {
      upsert.run({
        owner,
        siteUrl: course.siteUrl,
        orgUnitId: course.orgUnitId,
        fingerprint: dismissal.fingerprint,
        by: dismissal.by,
        at: dismissal.at,
        reason: dismissal.reason ?? null,
      });
    },

    async remove(owner, course, fingerprint) {
      return Number(deleteOne.run(owner, course.siteUrl, course.orgUnitId, fingerprint).changes) > 0;
    },

    close() {
      if (db.isOpen) db.close();
    },
  };
}
