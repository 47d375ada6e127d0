// The Fargate task's entry point (the runner image's command): one run, then exit with the code ECS
// reports as the job's outcome. The task's own role may only decrypt: everything else goes through
// the AWS session of its job that it was handed (job-session.ts).
import { kmsClient, taskDepsFromEnv } from './aws-deps.ts';
import { openJobSession, runFargateTask, runTimeoutWithin, stopSignalOnSigterm } from './fargate-task.ts';
import { ENV } from './settings.ts';

const signal = stopSignalOnSigterm();
const env = { ...process.env };
// The ciphertexts are of no use to anything else in this process.
delete process.env[ENV.encryptedCredentials];
delete process.env[ENV.encryptedSession];

let code: number;
try {
  const session = await openJobSession(env, kmsClient());
  code = await runFargateTask({ env, ...taskDepsFromEnv(env, session), kms: kmsClient(), signal, runTimeoutMs: runTimeoutWithin(session, new Date()) });
} catch (error) {
  console.error('the run could not be carried out:', error instanceof Error ? (error.stack ?? error.message) : String(error));
  // Not EXIT_RUN_FAILED: nothing was recorded, ECS's record of the stopped task ends the job.
  code = 2;
}
// SDK connections kept alive would hold the process open.
process.exit(code);
