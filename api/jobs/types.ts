// The job record and the two edges every runtime implements: where jobs are kept (SQLite locally,
// DynamoDB on AWS) and how a run is started (the local worker pool, an ECS Fargate task).
import type { JobProgress, JobStatus } from './job-status.ts';
import type { JobSummary } from '../report/summary.ts';
import type { Language } from '../i18n/languages.ts';
import type { ComparisonBaseline } from '../report/compare.ts';
import type { Dismissal } from '../report/model.ts';
import type { Protocol, ProtocolAnswer } from '../protocol/protocol-schema.ts';

export interface JobRecord {
  /** The identifier returned to the app as `taskArn`; opaque to it. */
  id: string;
  /** The `sub` of the access token that started the job: only that user may read it. */
  owner: string;
  status: JobStatus;
  client: string;
  siteUrl: string;
  orgUnitId: number;
  /** The modules it tests, each with everything nested in it (run-tests MODULES); none: course-wide items only. */
  modules: number[];
  /** Sub-modules of those it leaves out, each with everything nested in it (run-tests EXCLUDE_MODULES). */
  excludeModules?: number[];
  /** The titles of those modules as the user saw them (id -> title), for their history only. */
  moduleTitles?: Record<string, string>;
  /** Course-wide items read besides the modules (run-tests SCOPES); absent: none. */
  scopes?: string[];
  /** Check every item now, ignoring the verdicts kept from earlier runs (run-tests FULL); absent: reuse them. */
  full?: boolean;
  /**
   * The Brightspace user name the run signs in with, so that its owner can run it again; the
   * password is never kept.
   */
  userName?: string;
  /** The run's language: its report and its failure reason are written in it. Absent: English. */
  language?: Language;
  /** Report base name: readable, unique, unguessable, safe as a file name (no extension). */
  filename: string;
  /** The course's name, once the run has read it. */
  courseName?: string;
  /** What the run found, once it SUCCEEDED. */
  summary?: JobSummary;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  progress?: JobProgress;
  /** Why a job FAILED, in words a user can act on. */
  reason?: string;
  /** Where the run lives: the ECS task ARN on AWS, the worker slot locally. */
  runnerRef?: string;
}

export type JobPatch = Partial<Pick<JobRecord, 'status' | 'startedAt' | 'finishedAt' | 'progress' | 'reason' | 'runnerRef' | 'courseName' | 'summary'>>;

/** Caps on runs not yet finished, kept by the store itself when it records a new job. */
export interface RunLimits {
  /** Unfinished runs one owner may have. */
  perOwner: number;
  /** Unfinished runs in the whole deployment. */
  overall: number;
}

/** Whether a job was recorded, or which cap refused it (and that cap's value). */
export type AdmitOutcome = { admitted: true } | { admitted: false; limit: keyof RunLimits; cap: number };

export interface JobStore {
  create(job: JobRecord): Promise<void>;
  /**
   * Records a new job only while its owner and the deployment are both under their caps of
   * unfinished runs. Atomic: however many calls race, no cap is ever exceeded.
   */
  createWithinLimits(job: JobRecord, limits: RunLimits): Promise<AdmitOutcome>;
  get(id: string): Promise<JobRecord | undefined>;
  /**
   * Applies the patch and bumps `updatedAt`. A job in a terminal state (SUCCEEDED, FAILED) never
   * changes again: the call then returns the record unchanged. Returns undefined for an unknown id.
   */
  update(id: string, patch: JobPatch): Promise<JobRecord | undefined>;
  /** Jobs of one owner that are not yet terminal (for the per-user run limit). */
  countActive(owner: string): Promise<number>;
  /** Jobs in any of the given states (restart recovery). */
  listByStatus(statuses: readonly JobStatus[]): Promise<JobRecord[]>;
}

/** Brightspace credentials: held in memory for the length of one call or run, never stored. */
export interface BrightspaceCredentials {
  username: string;
  password: string;
}

export interface JobRunner {
  /**
   * Hands the job to a worker. Resolves once accepted; the run itself goes on in the background.
   * Throws AppError `overloaded` when it cannot take the job now.
   */
  submit(job: JobRecord, credentials: BrightspaceCredentials): Promise<void>;
  /** False when a submit now would be refused as overloaded (e.g. a full queue). Omitted: no limit. */
  hasCapacity?(): boolean;
  /**
   * Stops the job's run, waiting or running, once its record has been ended as cancelled: the
   * local worker's process, or the Fargate task. A run that has already ended is left alone.
   * Omitted: the runtime cannot stop runs (the run then ends itself at its next progress write).
   */
  cancel?(job: JobRecord): Promise<void>;
}

/** The report's three files: the HTML report, its JSON twin and its CSV twin. */
export interface ReportFiles {
  html: string;
  json: string;
  csv: string;
}

/** Where finished reports go: a folder locally, the reports bucket on AWS. */
export interface ReportStore {
  put(filename: string, files: ReportFiles): Promise<void>;
  /** One stored file of a report (the JSON twin a later run compares with); undefined once it is gone. */
  get(filename: string, extension: 'json'): Promise<string | undefined>;
  /** Deletes every file of a report (a cancelled run keeps none); a report already gone is no error. */
  remove(filename: string): Promise<void>;
}

/** Where a page of an owner's jobs ends: the next page starts after it. */
export interface JobCursor {
  createdAt: string;
  id: string;
}

export interface JobPage {
  jobs: JobRecord[];
  /** Absent on the last page. */
  next?: JobCursor;
}

/** A user's runs over time (GET /api/jobs), and the run a new report compares itself with. */
export interface JobHistory {
  /** The owner's jobs, newest first, at most `limit`, after the cursor when one is given. */
  listByOwner(owner: string, page: { limit: number; after?: JobCursor }): Promise<JobPage>;
  /** The owner's latest SUCCEEDED job of the same course (site and org unit) created before `job`. */
  previousSucceeded(job: JobRecord): Promise<JobRecord | undefined>;
}

/** A course as the history knows it: its site's origin and its org unit. */
export interface CourseKey {
  siteUrl: string;
  orgUnitId: number;
}

/** Findings a user dismissed, per course. A dismissal stays until it is restored (removed). */
/** The bounds on what one user may keep dismissed: the stores enforce them in the write itself. */
export interface DismissalLimits {
  /** Dismissed findings per course. */
  perCourse: number;
  /** Courses with dismissed findings. */
  courses: number;
}

export const DISMISSAL_LIMITS: DismissalLimits = {
  // A course with more than a thousand findings set aside is not being reviewed: it is being hidden.
  perCourse: 1_000,
  // A QA team reviews tens of courses a term; 200 keeps a year of them while bounding one user's rows.
  courses: 200,
};

/**
 * Days a dismissal is kept after it was made (or last changed): a course's content changes from term
 * to term, and a finding set aside a year ago deserves a new look. Expired ones are neither listed
 * nor applied; the stores delete them (DynamoDB's time to live on AWS, a purge on each write locally).
 */
export const DISMISSAL_KEEP_DAYS = 365;

/** What became of a dismissal: kept, or refused because a limit is reached. */
export type DismissalPut = 'kept' | 'course-full' | 'too-many-courses';

export interface DismissalStore {
  /** Oldest first; expired ones left out. */
  list(owner: string, course: CourseKey): Promise<Dismissal[]>;
  /**
   * Adds the dismissal of a fingerprint, or replaces it (a new reason), within the limits: a new
   * one past a limit is refused, and however many arrive at once no more than the limit are kept.
   */
  put(owner: string, course: CourseKey, dismissal: Dismissal, limits?: DismissalLimits): Promise<DismissalPut>;
  /** False when there was nothing to restore. */
  remove(owner: string, course: CourseKey, fingerprint: string): Promise<boolean>;
}

/** A client's protocol as kept for its owner: the client label as typed, who saved it and when. */
export interface StoredProtocol {
  client: string;
  protocol: Protocol;
  by: string;
  at: string;
}

/** Who marked a run ready for launch, and when. */
export interface SignOff {
  by: string;
  at: string;
}

/**
 * Each user's protocols, one per client label (the same label in any case and spacing), the answers
 * given to manual items per course (the latest per item, carried from run to run), and the runs
 * marked ready for launch.
 */
export interface ProtocolStore {
  /** The owner's protocols, by client label. */
  list(owner: string): Promise<StoredProtocol[]>;
  get(owner: string, client: string): Promise<StoredProtocol | undefined>;
  /** Adds the client's protocol, or replaces it. */
  put(owner: string, stored: StoredProtocol): Promise<void>;
  /** False when the client had none. */
  remove(owner: string, client: string): Promise<boolean>;
  /** The latest answer to each manual item of the course, whatever protocol asked it. */
  answers(owner: string, course: CourseKey): Promise<ProtocolAnswer[]>;
  /** Keeps an answer as the item's latest for the course, with the run it was given on. */
  putAnswer(owner: string, course: CourseKey, answer: ProtocolAnswer, jobId: string): Promise<void>;
  signOff(owner: string, jobId: string, signOff: SignOff): Promise<void>;
  /** The sign-offs of those of the owner's runs that have one. */
  signOffs(owner: string, jobIds: readonly string[]): Promise<Map<string, SignOff>>;
}

/** The protocol a run is scored against, and the answers its manual items already have. */
export interface ProtocolBaseline {
  protocol: Protocol;
  answers: ProtocolAnswer[];
}

/** What a finished run compares its report with, and scores it by. */
export interface RunBaseline extends ComparisonBaseline {
  /** Absent: CTPO's default protocol, without answers. */
  protocol?: ProtocolBaseline;
}

/** What a finished run compares its report with (report/compare.ts), wherever the runner runs. */
export interface BaselineSource {
  baselineFor(job: JobRecord): Promise<RunBaseline>;
}
