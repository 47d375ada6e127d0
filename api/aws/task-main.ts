// The Fargate task's entry point (the runner image's command): one run, then exit with the code ECS
// reports as the job's outcome.
import { baselinesFromEnv, jobStoreFromEnv, kmsClient, reportStoreFromEnv, verdictCacheFromEnv } from './aws-deps.ts';
import { runFargateTask, stopSignalOnSigterm } from './fargate-task.ts';
import { ENV } from './settings.ts';

const signal = stopSignalOnSigterm();
const env = { ...process.env };
// The ciphertext is of no use to anything else in this process.
delete process.env[ENV.encryptedCredentials];

let code: number;
try {
  code = await runFargateTask({
    env,
    jobs: jobStoreFromEnv(env),
    reports: reportStoreFromEnv(env),
    baselines: baselinesFromEnv(env),
    cache: verdictCacheFromEnv(env),
    kms: kmsClient(),
    signal,
  });
} catch (error) {
  console.error('the run could not be carried out:', error instanceof Error ? (error.stack ?? error.message) : String(error));
  code = 2;
}
// SDK connections kept alive would hold the process open.
process.exit(code);
