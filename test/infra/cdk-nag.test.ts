import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import type { Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { synthesize } from './support.ts';

const CERTIFICATE = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666';

/** Every acknowledgement in the app: which construct, which rule, and why. */
function acknowledgementsOf(synth: ReturnType<typeof synthesize>): { path: string; id: string; reason: string }[] {
  return synth.app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ path: construct.node.path, id, reason }))),
  );
}

describe('cdk-nag AwsSolutions checks', () => {
  it.each([
    ['as deployed by default', {}],
    ['with a custom domain and an existing QA API', { customDomain: { domainName: 'ctpo.example.com', certificateArn: CERTIFICATE }, externalApiUrl: 'https://qa.example.org' }],
  ])('pass %s', (_name, parameters) => {
    // Template.fromStack runs the plugin and throws on any finding not acknowledged.
    const synth = synthesize(parameters, { nag: true });
    try {
      // The report lists the plugins that found something, acknowledged or not: all must conclude success.
      const report = JSON.parse(readFileSync(join(synth.outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { conclusion: string }[] };
      expect(report.pluginReports.filter((plugin) => plugin.conclusion !== 'success')).toEqual([]);
      const acknowledgements = acknowledgementsOf(synth);
      expect(acknowledgements.length).toBeGreaterThan(10);
      for (const { id, reason } of acknowledgements) {
        // A reason a reviewer can weigh, not a placeholder.
        expect(reason.length, id).toBeGreaterThan(40);
      }
    } finally {
      synth.dispose();
    }
  });

  it('fails the synth on a finding nobody acknowledged', () => {
    // One careless bucket (no TLS enforcement, no access logs) is enough to stop a deploy.
    const alter = (stack: Stack) => void new s3.Bucket(stack, 'Careless');
    let failure: Error | undefined;
    try {
      synthesize({}, { nag: true, alter }).dispose();
    } catch (error) {
      failure = error as Error;
    }
    expect(failure?.name).toBe('ValidationFailed');
    expect(failure?.message).toMatch(/AwsSolutions-S10/);
    // And it is the careless bucket, only, that the checks name.
    const paths = [...(failure?.message ?? '').matchAll(/^\s+(Ctpo\/\S+)/gm)].map((match) => match[1]);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path?.startsWith('Ctpo/Careless/'))).toBe(true);
  });
});
