// `cdk synth` with the pinned CLI, exactly as CI and an operator run it, on a machine with no AWS
// credentials at all: it must succeed, and the Lambda bundles it makes must load.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, rotationFunction, routeFunction, taskStateFunction } from './resources.ts';
import { FIXTURE_WEB_DIST, only, render, REPO_ROOT, synthesize } from './support.ts';

const CDK = join(REPO_ROOT, 'node_modules', '.bin', 'cdk');
const SYNTH_LIMIT_MS = 600_000;

/** The CLI with nothing of this machine's AWS setup: no keys, no profile, no instance metadata. */
function cdk(args: string[], home: string) {
  return spawnSync(CDK, [...args, '--no-notices'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: SYNTH_LIMIT_MS,
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: home,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONFIG_FILE: join(home, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, 'no-aws-credentials'),
      CDK_DISABLE_CLI_TELEMETRY: 'true',
    },
  });
}

describe('cdk synth without AWS credentials', () => {
  let home: string;
  let outdir: string;
  let result: ReturnType<typeof spawnSync>;

  // A full synth bundles five functions: on a busy machine that takes minutes, not seconds. The
  // limit is a safety net for a hung CLI, not a measure of speed.
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'ctpo-home-'));
    outdir = mkdtempSync(join(tmpdir(), 'ctpo-synth-'));
    result = cdk(['synth', '--quiet', '-c', `webDist=${FIXTURE_WEB_DIST}`, '-o', outdir], home);
  }, SYNTH_LIMIT_MS + 60_000);
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(outdir, { recursive: true, force: true });
  });

  it('succeeds with the pinned CLI, cdk-nag checks included, for both stacks', () => {
    expect(result.status, String(result.stderr)).toBe(0);
    expect(existsSync(join(outdir, 'Ctpo.template.json'))).toBe(true);
    expect(existsSync(join(outdir, 'CtpoEdge.template.json'))).toBe(true);
    expect(String(result.stderr)).not.toMatch(/schema version mismatch|credentials/i);
  });

  it('bundles each Lambda function into an ES module that loads with the environment the stack gives it', () => {
    const template = Template.fromJSON(JSON.parse(readFileSync(join(outdir, 'Ctpo.template.json'), 'utf8')) as Record<string, unknown>);
    const pool = only(template, 'AWS::Cognito::UserPool').id;
    const client = only(template, 'AWS::Cognito::UserPoolClient').id;
    const values = { [pool]: 'ca-central-1_AbC123xyz', [client]: '4example5client6id7' };
    // Every function of ours: the routes, the task-state handler and the report-key rotation.
    const handlers = [...API_ROUTES.map((pattern) => routeFunction(template, pattern)), taskStateFunction(template), rotationFunction(template)];
    expect(new Set(handlers.map((handler) => handler.id)).size).toBe(10);
    for (const { id, properties } of handlers) {
      const key = (properties.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
      const bundle = join(outdir, `asset.${key}`, 'index.mjs');
      const variables = (properties.Environment as { Variables: Record<string, unknown> }).Variables;
      const env = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, render(value, values)]));
      const load = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(bundle)}); console.log(typeof m.handler);`], {
        encoding: 'utf8',
        env: { ...env, AWS_REGION: 'ca-central-1', AWS_EC2_METADATA_DISABLED: 'true' },
        timeout: 120_000,
      });
      expect(load.stderr, id).toBe('');
      expect(load.stdout.trim(), id).toBe('function');
    }
  });

  it('needs no AWS lookup when the account is known, as at deploy time', () => {
    const known = synthesize({}, { account: '111122223333' });
    try {
      // A lookup would need credentials at synth and pin a cdk.context.json to one account.
      expect(known.app.synth().manifest.missing).toBeUndefined();
      expect(known.template.findResources('AWS::EC2::Subnet')).toSatisfy((subnets: Record<string, { Properties: { AvailabilityZone: string } }>) =>
        Object.values(subnets).every((subnet) => ['ca-central-1a', 'ca-central-1b'].includes(subnet.Properties.AvailabilityZone)),
      );
    } finally {
      known.dispose();
    }
  });

  it('refuses bad parameters before building anything, saying which', () => {
    const refused = cdk(['synth', '--quiet', '-c', 'reportExpiryDays=0', '-c', `webDist=${FIXTURE_WEB_DIST}`, '-o', outdir], home);
    expect(refused.status).not.toBe(0);
    expect(String(refused.stderr)).toMatch(/reportExpiryDays \(context\) \/ CTPO_REPORT_EXPIRY_DAYS.*1 to 3650/);
    expect(String(refused.stderr)).not.toMatch(/Bundling asset/);
  });

  it('says to build the app first when it is missing', () => {
    const missing = cdk(['synth', '--quiet', '-c', `webDist=${join(home, 'no-such-build')}`, '-o', outdir], home);
    expect(missing.status).not.toBe(0);
    expect(String(missing.stderr)).toMatch(/The built app is missing: .* Run `npm run build` first\./);
  });
});
