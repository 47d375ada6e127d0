// The local job store: one SQLite file (node:sqlite) shared by the API and the worker threads.
// The rules that make a job history trustworthy live in the schema itself, so no caller can
// break them: a terminal job never changes again, and a status never moves backwards.
import { DatabaseSync } from 'node:sqlite';
import { JOB_STATUSES, isTerminal } from './job-status.ts';
import { RUN_PHASES } from '../engine/progress.ts';
import type { JobStatus } from './job-status.ts';
import type { JobSummary } from '../report/summary.ts';
import { languageOf } from '../i18n/languages.ts';
import type { AdmitOutcome, JobHistory, JobPatch, JobRecord, JobStore, RunLimits } from './types.ts';

// 2: progress_phase. 3: scopes, language, course_name, summary. 4: exclude_modules, module_titles, user_name.
// 5: full.
const SCHEMA_VERSION = 5;

const statusList = JOB_STATUSES.map((status) => `'${status}'`).join(', ');
// The lifecycle order, as SQL: PROVISIONING 0 ... SUCCEEDED/FAILED 4.
const rankOf = (column: string): string =>
  `CASE ${column} WHEN 'PROVISIONING' THEN 0 WHEN 'PENDING' THEN 1 WHEN 'RUNNING' THEN 2 WHEN 'DEPROVISIONING' THEN 3 ELSE 4 END`;

const schema = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN (${statusList})),
  client TEXT NOT NULL,
  site_url TEXT NOT NULL,
  org_unit_id INTEGER NOT NULL,
  modules TEXT NOT NULL,
  exclude_modules TEXT,
  module_titles TEXT,
  scopes TEXT,
  full INTEGER,
  language TEXT,
  user_name TEXT,
  filename TEXT NOT NULL UNIQUE,
  course_name TEXT,
  summary TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  progress_done INTEGER,
  progress_total INTEGER,
  progress_phase TEXT,
  reason TEXT,
  runner_ref TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS jobs_by_owner_status ON jobs (owner, status);
CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status);
-- A user's runs newest first (GET /api/jobs), and the previous run of a course.
CREATE INDEX IF NOT EXISTS jobs_by_owner_created ON jobs (owner, created_at, id);
-- A finished job is history: any later write is silently dropped.
CREATE TRIGGER IF NOT EXISTS jobs_terminal_is_final BEFORE UPDATE ON jobs
  WHEN OLD.status IN ('SUCCEEDED', 'FAILED')
  BEGIN SELECT RAISE(IGNORE); END;
-- A late write from a slower path (e.g. PENDING after the worker said RUNNING) must not rewind a job.
CREATE TRIGGER IF NOT EXISTS jobs_status_moves_forward BEFORE UPDATE OF status ON jobs
  WHEN ${rankOf('NEW.status')} < ${rankOf('OLD.status')}
  BEGIN SELECT RAISE(IGNORE); END;
`;

interface JobRow {
  id: string;
  owner: string;
  status: string;
  client: string;
  site_url: string;
  org_unit_id: number;
  modules: string;
  exclude_modules: string | null;
  module_titles: string | null;
  scopes: string | null;
  full: number | null;
  language: string | null;
  user_name: string | null;
  filename: string;
  course_name: string | null;
  summary: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress_done: number | null;
  progress_total: number | null;
  progress_phase: string | null;
  reason: string | null;
  runner_ref: string | null;
}

function toRecord(row: JobRow): JobRecord {
  const record: JobRecord = {
    id: row.id,
    owner: row.owner,
    status: row.status as JobStatus,
    client: row.client,
    siteUrl: row.site_url,
    orgUnitId: row.org_unit_id,
    modules: JSON.parse(row.modules) as number[],
    filename: row.filename,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.exclude_modules !== null) record.excludeModules = JSON.parse(row.exclude_modules) as number[];
  if (row.module_titles !== null) record.moduleTitles = JSON.parse(row.module_titles) as Record<string, string>;
  if (row.scopes !== null) record.scopes = JSON.parse(row.scopes) as string[];
  if (row.full !== null) record.full = row.full === 1;
  if (row.user_name !== null) record.userName = row.user_name;
  const language = languageOf(row.language);
  if (language !== undefined) record.language = language;
  if (row.course_name !== null) record.courseName = row.course_name;
  if (row.summary !== null) record.summary = JSON.parse(row.summary) as JobSummary;
  if (row.started_at !== null) record.startedAt = row.started_at;
  if (row.finished_at !== null) record.finishedAt = row.finished_at;
  if (row.progress_done !== null && row.progress_total !== null) {
    record.progress = { done: row.progress_done, total: row.progress_total };
    const phase = RUN_PHASES.find((known) => known === row.progress_phase);
    if (phase !== undefined) record.progress.phase = phase;
  }
  if (row.reason !== null) record.reason = row.reason;
  if (row.runner_ref !== null) record.runnerRef = row.runner_ref;
  return record;
}

export interface SqliteJobStoreOptions {
  /** The database file; ':memory:' for a private in-memory store. */
  path: string;
  now?: () => Date;
}

export interface SqliteJobStore extends JobStore, JobHistory {
  /**
   * Deletes the finished jobs created before `cutoff` (retention) and returns their report names,
   * whose files go with them. Unfinished jobs are never deleted.
   */
  deleteFinishedBefore(cutoff: Date): Promise<string[]>;
  close(): void;
}

export function openSqliteJobStore(options: SqliteJobStoreOptions): SqliteJobStore {
  const now = options.now ?? (() => new Date());
  // The API thread and the worker threads each hold a connection; the busy timeout makes a
  // writer wait for another instead of failing.
  const db = new DatabaseSync(options.path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new Error(`The job database ${options.path} was written by a newer version of CTPO (schema ${version}).`);
  }
  db.exec(schema);
  // An older database keeps its jobs and gains the newer columns.
  if (version >= 1 && version < 2) db.exec('ALTER TABLE jobs ADD COLUMN progress_phase TEXT');
  if (version >= 1 && version < 3) {
    for (const column of ['scopes', 'language', 'course_name', 'summary']) db.exec(`ALTER TABLE jobs ADD COLUMN ${column} TEXT`);
  }
  if (version >= 1 && version < 4) {
    for (const column of ['exclude_modules', 'module_titles', 'user_name']) db.exec(`ALTER TABLE jobs ADD COLUMN ${column} TEXT`);
  }
  if (version >= 1 && version < 5) db.exec('ALTER TABLE jobs ADD COLUMN full INTEGER');
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);

  const insert = db.prepare(`
    INSERT INTO jobs (id, owner, status, client, site_url, org_unit_id, modules, exclude_modules, module_titles,
      scopes, full, language, user_name, filename, course_name, summary, created_at, updated_at, started_at, finished_at,
      progress_done, progress_total, progress_phase, reason, runner_ref)
    VALUES (:id, :owner, :status, :client, :siteUrl, :orgUnitId, :modules, :excludeModules, :moduleTitles,
      :scopes, :full, :language, :userName, :filename, :courseName, :summary, :createdAt, :updatedAt, :startedAt, :finishedAt,
      :progressDone, :progressTotal, :progressPhase, :reason, :runnerRef)`);
  const selectOne = db.prepare('SELECT * FROM jobs WHERE id = ?');
  // COALESCE keeps a column when the patch leaves it out (null parameter).
  const patchOne = db.prepare(`
    UPDATE jobs SET
      status = COALESCE(:status, status),
      started_at = COALESCE(:startedAt, started_at),
      finished_at = COALESCE(:finishedAt, finished_at),
      progress_done = COALESCE(:progressDone, progress_done),
      progress_total = COALESCE(:progressTotal, progress_total),
      progress_phase = CASE WHEN :progressTotal IS NULL THEN progress_phase ELSE :progressPhase END,
      reason = COALESCE(:reason, reason),
      runner_ref = COALESCE(:runnerRef, runner_ref),
      course_name = COALESCE(:courseName, course_name),
      summary = COALESCE(:summary, summary),
      updated_at = :updatedAt
    WHERE id = :id`);
  const pageOfOwner = db.prepare('SELECT * FROM jobs WHERE owner = ? ORDER BY created_at DESC, id DESC LIMIT ?');
  const pageOfOwnerAfter = db.prepare(
    'SELECT * FROM jobs WHERE owner = :owner AND (created_at < :createdAt OR (created_at = :createdAt AND id < :id)) ORDER BY created_at DESC, id DESC LIMIT :limit',
  );
  const previousOfCourse = db.prepare(`
    SELECT * FROM jobs WHERE owner = :owner AND site_url = :siteUrl AND org_unit_id = :orgUnitId AND status = 'SUCCEEDED'
      AND id <> :id AND (created_at < :createdAt OR (created_at = :createdAt AND id < :id))
    ORDER BY created_at DESC, id DESC LIMIT 1`);
  const finishedBefore = db.prepare("SELECT id, filename FROM jobs WHERE status IN ('SUCCEEDED', 'FAILED') AND created_at < ?");
  const deleteOne = db.prepare('DELETE FROM jobs WHERE id = ?');
  const countActiveOf = db.prepare(
    "SELECT COUNT(*) AS active FROM jobs WHERE owner = ? AND status NOT IN ('SUCCEEDED', 'FAILED')",
  );
  const countAllActive = db.prepare("SELECT COUNT(*) AS active FROM jobs WHERE status NOT IN ('SUCCEEDED', 'FAILED')");

  const insertJob = (job: JobRecord): void => {
    insert.run({
      id: job.id,
      owner: job.owner,
      status: job.status,
      client: job.client,
      siteUrl: job.siteUrl,
      orgUnitId: job.orgUnitId,
      modules: JSON.stringify(job.modules),
      excludeModules: job.excludeModules === undefined ? null : JSON.stringify(job.excludeModules),
      moduleTitles: job.moduleTitles === undefined ? null : JSON.stringify(job.moduleTitles),
      scopes: job.scopes === undefined ? null : JSON.stringify(job.scopes),
      full: job.full === undefined ? null : job.full ? 1 : 0,
      language: job.language ?? null,
      userName: job.userName ?? null,
      filename: job.filename,
      courseName: job.courseName ?? null,
      summary: job.summary === undefined ? null : JSON.stringify(job.summary),
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      startedAt: job.startedAt ?? null,
      finishedAt: job.finishedAt ?? null,
      progressDone: job.progress?.done ?? null,
      progressTotal: job.progress?.total ?? null,
      progressPhase: job.progress?.phase ?? null,
      reason: job.reason ?? null,
      runnerRef: job.runnerRef ?? null,
    });
  };

  // Counting and inserting in one write transaction: another connection (the worker pool's, a
  // second server on the same file) cannot slip a job in between.
  const admit = (job: JobRecord, limits: RunLimits): AdmitOutcome => {
    db.exec('BEGIN IMMEDIATE');
    try {
      let outcome: AdmitOutcome = { admitted: true };
      if ((countActiveOf.get(job.owner) as { active: number }).active >= limits.perOwner) {
        outcome = { admitted: false, limit: 'perOwner', cap: limits.perOwner };
      } else if ((countAllActive.get() as { active: number }).active >= limits.overall) {
        outcome = { admitted: false, limit: 'overall', cap: limits.overall };
      } else {
        insertJob(job);
      }
      db.exec('COMMIT');
      return outcome;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };

  return {
    async create(job) {
      insertJob(job);
    },

    async createWithinLimits(job, limits) {
      return admit(job, limits);
    },

    async get(id) {
      const row = selectOne.get(id) as JobRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },

    async update(id, patch: JobPatch) {
      const at = now().toISOString();
      const finishedAt = patch.finishedAt ?? (patch.status !== undefined && isTerminal(patch.status) ? at : null);
      patchOne.run({
        id,
        status: patch.status ?? null,
        startedAt: patch.startedAt ?? null,
        finishedAt,
        progressDone: patch.progress?.done ?? null,
        progressTotal: patch.progress?.total ?? null,
        progressPhase: patch.progress?.phase ?? null,
        reason: patch.reason ?? null,
        runnerRef: patch.runnerRef ?? null,
        courseName: patch.courseName ?? null,
        summary: patch.summary === undefined ? null : JSON.stringify(patch.summary),
        updatedAt: at,
      });
      const row = selectOne.get(id) as JobRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },

    async countActive(owner) {
      return (countActiveOf.get(owner) as { active: number }).active;
    },

    async listByStatus(statuses) {
      if (statuses.length === 0) return [];
      const placeholders = statuses.map(() => '?').join(', ');
      const rows = db
        .prepare(`SELECT * FROM jobs WHERE status IN (${placeholders}) ORDER BY created_at, id`)
        .all(...statuses) as unknown as JobRow[];
      return rows.map(toRecord);
    },

    async listByOwner(owner, page) {
      // One more than asked tells whether another page follows.
      const rows = (
        page.after === undefined
          ? pageOfOwner.all(owner, page.limit + 1)
          : pageOfOwnerAfter.all({ owner, createdAt: page.after.createdAt, id: page.after.id, limit: page.limit + 1 })
      ) as unknown as JobRow[];
      const jobs = rows.slice(0, page.limit).map(toRecord);
      const last = jobs.at(-1);
      return rows.length > page.limit && last !== undefined ? { jobs, next: { createdAt: last.createdAt, id: last.id } } : { jobs };
    },

    async previousSucceeded(job) {
      const row = previousOfCourse.get({ owner: job.owner, siteUrl: job.siteUrl, orgUnitId: job.orgUnitId, id: job.id, createdAt: job.createdAt }) as JobRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },

    async deleteFinishedBefore(cutoff) {
      const rows = finishedBefore.all(cutoff.toISOString()) as { id: string; filename: string }[];
      for (const row of rows) deleteOne.run(row.id);
      return rows.map((row) => row.filename);
    },

    close() {
      if (db.isOpen) db.close();
    },
  };
}
