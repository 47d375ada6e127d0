// The local dismissal store: a table beside the jobs in the same SQLite file (its own connection).
// A dismissal belongs to one user and one course and stays until it is restored or DISMISSAL_KEEP_DAYS
// pass. Each write counts and inserts in one immediate transaction, so the limits hold under a burst.
import { DatabaseSync } from 'node:sqlite';
import type { Dismissal } from '../report/model.ts';
import { DISMISSAL_KEEP_DAYS, DISMISSAL_LIMITS, type DismissalStore } from './types.ts';

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

export function openSqliteDismissalStore(options: { path: string; now?: () => Date }): SqliteDismissalStore {
  const now = options.now ?? (() => new Date());
  /** Dismissals made before this have expired. */
  const cutoff = () => new Date(now().getTime() - DISMISSAL_KEEP_DAYS * 86_400_000).toISOString();
  const db = new DatabaseSync(options.path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(schema);
  const selectCourse = db.prepare(
    'SELECT fingerprint, dismissed_by, dismissed_at, reason FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ? AND dismissed_at >= ? ORDER BY dismissed_at, fingerprint',
  );
  const purge = db.prepare('DELETE FROM dismissals WHERE owner = ? AND dismissed_at < ?');
  const exists = db.prepare('SELECT 1 FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ? AND fingerprint = ?');
  const inCourse = db.prepare('SELECT count(*) AS n FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ?');
  const courses = db.prepare('SELECT count(*) AS n FROM (SELECT DISTINCT site_url, org_unit_id FROM dismissals WHERE owner = ?)');
  const upsert = db.prepare(`
    INSERT INTO dismissals (owner, site_url, org_unit_id, fingerprint, dismissed_by, dismissed_at, reason)
    VALUES (:owner, :siteUrl, :orgUnitId, :fingerprint, :by, :at, :reason)
    ON CONFLICT (owner, site_url, org_unit_id, fingerprint)
    DO UPDATE SET dismissed_by = excluded.dismissed_by, dismissed_at = excluded.dismissed_at, reason = excluded.reason`);
  const deleteOne = db.prepare('DELETE FROM dismissals WHERE owner = ? AND site_url = ? AND org_unit_id = ? AND fingerprint = ?');

  return {
    async list(owner, course) {
      const rows = selectCourse.all(owner, course.siteUrl, course.orgUnitId, cutoff()) as unknown as DismissalRow[];
      return rows.map((row) => {
        const dismissal: Dismissal = { fingerprint: row.fingerprint, by: row.dismissed_by, at: row.dismissed_at };
        if (row.reason !== null) dismissal.reason = row.reason;
        return dismissal;
      });
    },

    async put(owner, course, dismissal, limits = DISMISSAL_LIMITS) {
      const { siteUrl, orgUnitId } = course;
      // Immediate: the counts and the insert see no other writer in between.
      db.exec('BEGIN IMMEDIATE');
      try {
        purge.run(owner, cutoff());
        if (exists.get(owner, siteUrl, orgUnitId, dismissal.fingerprint) === undefined) {
          const here = Number((inCourse.get(owner, siteUrl, orgUnitId) as { n: number }).n);
          if (here >= limits.perCourse) {
            db.exec('ROLLBACK');
            return 'course-full';
          }
          if (here === 0 && Number((courses.get(owner) as { n: number }).n) >= limits.courses) {
            db.exec('ROLLBACK');
            return 'too-many-courses';
          }
        }
        upsert.run({ owner, siteUrl, orgUnitId, fingerprint: dismissal.fingerprint, by: dismissal.by, at: dismissal.at, reason: dismissal.reason ?? null });
        db.exec('COMMIT');
        return 'kept';
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },

    async remove(owner, course, fingerprint) {
      return Number(deleteOne.run(owner, course.siteUrl, course.orgUnitId, fingerprint).changes) > 0;
    },

    close() {
      if (db.isOpen) db.close();
    },
  };
}
