// The stack and the code it runs agree on settings: each function and the runner task is built from
// the environment the stack gives it, exactly as at cold start, and nothing is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRunnerFromEnv, jobStoreFromEnv, refreshingJobStoreFromEnv, taskDepsFromEnv } from '../../api/aws/aws-deps.ts';
import { createKvsReportLinkRevocations } from '../../api/aws/kvs-report-link-revocations.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, NO_TABLE_OF_CONTENTS, apiDepsFromEnv } from '../../api/aws/lambda/http-lambda.ts';
import { reportSigningKeyFromEnv } from '../../api/aws/report-signing-key.ts';
import { ENV, requireEnv } from '../../api/aws/settings.ts';
import { credentialsKey, environmentOf, routeFunction, runnerTask, taskStateFunction } from './resources.ts';
import { only, render, synthesize } from './support.ts';
import type { Found, Synthesized } from './support.ts';

describe('the environment the stack sets', () => {
  let synth: Synthesized;
  let values: Record<string, string>;
  let settingsOf: (fn: Found) => Record<string, string>;

  beforeAll(() => {
    synth = synthesize();
    // What CloudFormation would put in place of the references that the code checks the form of.
    values = {
      [only(synth.template, 'AWS::Cognito::UserPool').id]: 'ca-central-1_AbC123xyz',
      [only(synth.template, 'AWS::Cognito::UserPoolClient').id]: '4example5client6id7',
    };
    settingsOf = (fn) => Object.fromEntries(Object.entries(environmentOf(fn)).map(([name, value]) => [name, render(value, values)]));
  });
  afterAll(() => synth.dispose());

  it('is enough for the table-of-contents function', () => {
    const deps = apiDepsFromEnv(settingsOf(routeFunction(synth.template, '/api/toc')), { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: NO_TABLE_OF_CONTENTS });
    expect(deps.allowPrivateTargets).toBe(false);
    expect(deps.outputUrl).toMatch(/\/reports\/$/);
  });

  it('is enough for the run-tests function, its job store and its ECS runner', () => {
    const env = settingsOf(routeFunction(synth.template, '/api/run-tests'));
    const jobs = jobStoreFromEnv(env);
    expect(() => apiDepsFromEnv(env, { jobs, runner: jobRunnerFromEnv(env, jobs), loadTableOfContents: NO_TABLE_OF_CONTENTS })).not.toThrow();
    // The runner VPC's two public subnets.
    const publicSubnets = Object.keys(synth.template.findResources('AWS::EC2::Subnet', { Properties: { MapPublicIpOnLaunch: true } }));
    expect(publicSubnets).toHaveLength(2);
    expect(env[ENV.subnets]).toBe(publicSubnets.map((id) => `{${id}}`).join(','));
    expect(env[ENV.containerName]).toBe('runner');
  });

  it('is enough for the job-status function, which reads ECS for quiet jobs and signs report links', () => {
    const env = settingsOf(routeFunction(synth.template, '/api/job-status/*'));
    expect(() =>
      apiDepsFromEnv(env, { jobs: refreshingJobStoreFromEnv(env), runner: NO_JOB_RUNNER, loadTableOfContents: NO_TABLE_OF_CONTENTS, reportSigningKey: reportSigningKeyFromEnv(env) }),
    ).not.toThrow();
  });

  it('is enough for the task-state function', () => {
    const env = settingsOf(taskStateFunction(synth.template));
    expect(() => jobStoreFromEnv(env)).not.toThrow();
    expect(requireEnv(env, ENV.containerName)).toBe('runner');
  });

  it('is enough for the report-links function, which writes into the edge key store', () => {
    const env = settingsOf(routeFunction(synth.template, '/api/report-links'));
    expect(() => apiDepsFromEnv(env, { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: NO_TABLE_OF_CONTENTS })).not.toThrow();
    expect(requireEnv(env, ENV.reportKeyStore)).toBe(`{${only(synth.template, 'AWS::CloudFront::KeyValueStore').id}.Arn}`);
    expect(() => createKvsReportLinkRevocations({ client: {} as never, storeArn: requireEnv(env, ENV.reportKeyStore) })).not.toThrow();
  });

  it('is enough for the runner task, with the job id, ciphertexts and previous report that RunTask adds', () => {
    const task = runnerTask(synth.template).properties as {
      ContainerDefinitions: { Environment: { Name: string; Value: unknown }[] }[];
    };
    const env: Record<string, string> = Object.fromEntries(task.ContainerDefinitions[0]!.Environment.map(({ Name, Value }) => [Name, render(Value)]));
    env[ENV.jobId] = 'job-1';
    env[ENV.encryptedCredentials] = 'AQID';
    env[ENV.encryptedSession] = 'AQID';
    env[ENV.baselineReport] = 'acme-ou6606-earlier';
    // Its stores, on the session of its job it decrypted.
    const session = { accessKeyId: 'ASIA1', secretAccessKey: 'secret', sessionToken: 'token', expiration: '2026-11-28T07:00:00.000Z' };
    expect(() => taskDepsFromEnv(env, session)).not.toThrow();
    expect(requireEnv(env, ENV.credentialsKey)).toBe(`{${credentialsKey(synth.template).id}.Arn}`);
  });

  it('would be caught missing', () => {
    const env = settingsOf(routeFunction(synth.template, '/api/toc'));
    delete env[ENV.reportsUrl];
    expect(() => apiDepsFromEnv(env, { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: NO_TABLE_OF_CONTENTS })).toThrow(/CTPO_REPORTS_URL is not set/);
  });
});
