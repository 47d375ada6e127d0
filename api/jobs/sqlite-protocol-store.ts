// The local protocol store: tables beside the jobs in the same SQLite file (its own connection), as
// the dismissals. A protocol belongs to one user and one client label; an answer to one user, one
// course and one manual item (the latest wins); a sign-off to one run. None expires with the runs:
// a protocol and its answers outlive every report.
import { DatabaseSync } from 'node:sqlite';
import type { Protocol, ProtocolAnswer } from '../protocol/protocol-schema.ts';
import { clientKeyOf } from '../protocol/client-key.ts';
import type { ProtocolStore, SignOff, StoredProtocol } from './types.ts';

const schema = `
CREATE TABLE IF NOT EXISTS protocols (
  owner TEXT NOT NULL,
  client_key TEXT NOT NULL,
  client TEXT NOT NULL,
  protocol TEXT NOT NULL,
  saved_by TEXT NOT NULL,
  saved_at TEXT NOT NULL,
  PRIMARY KEY (owner, client_key)
) STRICT;
CREATE TABLE IF NOT EXISTS protocol_answers (
  owner TEXT NOT NULL,
  site_url TEXT NOT NULL,
  org_unit_id INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  item_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pass', 'fail', 'n/a')),
  note TEXT,
  answered_by TEXT NOT NULL,
  answered_at TEXT NOT NULL,
  job_id TEXT NOT NULL,
  PRIMARY KEY (owner, site_url, org_unit_id, item_id)
) STRICT;
CREATE TABLE IF NOT EXISTS protocol_sign_offs (
  job_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  signed_by TEXT NOT NULL,
  signed_at TEXT NOT NULL
) STRICT;
`;

interface ProtocolRow {
  client: string;
  protocol: string;
  saved_by: string;
  saved_at: string;
}

interface AnswerRow {
  item_id: string;
  item_key: string;
  status: ProtocolAnswer['status'];
  note: string | null;
  answered_by: string;
  answered_at: string;
}

export interface SqliteProtocolStore extends ProtocolStore {
  close(): void;
}

const storedOf = (row: ProtocolRow): StoredProtocol => ({ client: row.client, protocol: JSON.parse(row.protocol) as Protocol, by: row.saved_by, at: row.saved_at });

export function openSqliteProtocolStore(options: { path: string }): SqliteProtocolStore {
  const db = new DatabaseSync(options.path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(schema);
  const selectAll = db.prepare('SELECT client, protocol, saved_by, saved_at FROM protocols WHERE owner = ? ORDER BY client_key');
  const selectOne = db.prepare('SELECT client, protocol, saved_by, saved_at FROM protocols WHERE owner = ? AND client_key = ?');
  const upsert = db.prepare(`
    INSERT INTO protocols (owner, client_key, client, protocol, saved_by, saved_at) VALUES (:owner, :key, :client, :protocol, :by, :at)
    ON CONFLICT (owner, client_key) DO UPDATE SET client = excluded.client, protocol = excluded.protocol, saved_by = excluded.saved_by, saved_at = excluded.saved_at`);
  const deleteOne = db.prepare('DELETE FROM protocols WHERE owner = ? AND client_key = ?');
  const selectAnswers = db.prepare(
    'SELECT item_id, item_key, status, note, answered_by, answered_at FROM protocol_answers WHERE owner = ? AND site_url = ? AND org_unit_id = ? ORDER BY item_id',
  );
  const upsertAnswer = db.prepare(`
    INSERT INTO protocol_answers (owner, site_url, org_unit_id, item_id, item_key, status, note, answered_by, answered_at, job_id)
    VALUES (:owner, :siteUrl, :orgUnitId, :itemId, :itemKey, :status, :note, :by, :at, :jobId)
    ON CONFLICT (owner, site_url, org_unit_id, item_id) DO UPDATE SET item_key = excluded.item_key, status = excluded.status, note = excluded.note,
      answered_by = excluded.answered_by, answered_at = excluded.answered_at, job_id = excluded.job_id`);
  const upsertSignOff = db.prepare(`
    INSERT INTO protocol_sign_offs (job_id, owner, signed_by, signed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (job_id) DO UPDATE SET signed_by = excluded.signed_by, signed_at = excluded.signed_at WHERE protocol_sign_offs.owner = excluded.owner`);
  const selectSignOff = db.prepare('SELECT signed_by, signed_at FROM protocol_sign_offs WHERE owner = ? AND job_id = ?');

  return {
    async list(owner) {
      return (selectAll.all(owner) as unknown as ProtocolRow[]).map(storedOf);
    },
    async get(owner, client) {
      const row = selectOne.get(owner, clientKeyOf(client)) as ProtocolRow | undefined;
      return row === undefined ? undefined : storedOf(row);
    },
    async put(owner, stored) {
      upsert.run({ owner, key: clientKeyOf(stored.client), client: stored.client.trim(), protocol: JSON.stringify(stored.protocol), by: stored.by, at: stored.at });
    },
    async remove(owner, client) {
      return Number(deleteOne.run(owner, clientKeyOf(client)).changes) > 0;
    },
    async answers(owner, course) {
      return (selectAnswers.all(owner, course.siteUrl, course.orgUnitId) as unknown as AnswerRow[]).map((row) => ({
        itemId: row.item_id,
        itemKey: row.item_key,
        status: row.status,
        ...(row.note === null ? {} : { note: row.note }),
        by: row.answered_by,
        at: row.answered_at,
      }));
    },
    async putAnswer(owner, course, answer, jobId) {
      upsertAnswer.run({
        owner,
        siteUrl: course.siteUrl,
        orgUnitId: course.orgUnitId,
        itemId: answer.itemId,
        itemKey: answer.itemKey,
        status: answer.status,
        note: answer.note ?? null,
        by: answer.by,
        at: answer.at,
        jobId,
      });
    },
    async signOff(owner, jobId, signOff) {
      upsertSignOff.run(jobId, owner, signOff.by, signOff.at);
    },
    async signOffs(owner, jobIds) {
      const found = new Map<string, SignOff>();
      for (const jobId of jobIds) {
        const row = selectSignOff.get(owner, jobId) as { signed_by: string; signed_at: string } | undefined;
        if (row !== undefined) found.set(jobId, { by: row.signed_by, at: row.signed_at });
      }
      return found;
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}
