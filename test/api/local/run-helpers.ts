// Test support for runs through the QA API over HTTPS: start one, follow it, as the app does.
import type { HttpsClient } from './support.ts';

export interface RunRequest {
  USER_NAME: string;
  PASSWORD: string;
  CLIENT_URL: string;
  ORG_UNIT_ID: number | string;
  CLIENT_NAME: string;
  MODULES: number[];
}

export interface JobStatusBody {
  status: string;
  outputUrl?: string;
  reason?: string;
  progress?: { done: number; total: number };
}

export interface ApiCaller {
  /** The caller's Authorization header. */
  authorization: string;
  startRun(body: RunRequest): Promise<{ status: number; taskArn: string; filename: string; message: string }>;
  jobStatus(taskArn: string): Promise<{ status: number; body: JobStatusBody }>;
  /** Polls every `everyMs` until a terminal status; throws after `withinMs`. */
  waitForEnd(taskArn: string, withinMs: number, everyMs?: number): Promise<JobStatusBody>;
  /** Polls until the job shows `status`. */
  waitForStatus(taskArn: string, status: string, withinMs: number): Promise<JobStatusBody>;
}

export function apiCaller(client: HttpsClient, origin: string, token: string): ApiCaller {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const jobStatus = async (taskArn: string) => {
    const answer = await client.fetch(`${origin}/api/job-status/${encodeURIComponent(taskArn)}`, { headers });
    return { status: answer.status, body: (await answer.json()) as JobStatusBody };
  };
  const waitFor = async (taskArn: string, done: (body: JobStatusBody) => boolean, withinMs: number, everyMs: number, what: string) => {
    const deadline = Date.now() + withinMs;
    let last: JobStatusBody | undefined;
    while (Date.now() < deadline) {
      last = (await jobStatus(taskArn)).body;
      if (done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    throw new Error(`job ${taskArn} did not reach ${what} within ${withinMs} ms; last seen ${JSON.stringify(last)}`);
  };
  return {
    authorization: headers.authorization,
    async startRun(body) {
      const answer = await client.fetch(`${origin}/api/run-tests`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await answer.json()) as { taskArn: string; filename: string; message: string };
      return { status: answer.status, ...json };
    },
    jobStatus,
    waitForEnd: (taskArn, withinMs, everyMs = 100) =>
      waitFor(taskArn, (body) => body.status === 'SUCCEEDED' || body.status === 'FAILED', withinMs, everyMs, 'an end'),
    waitForStatus: (taskArn, status, withinMs) => waitFor(taskArn, (body) => body.status === status, withinMs, 50, status),
  };
}
