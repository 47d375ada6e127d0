// Builds the CTPO stacks the way `cdk synth` does (cdk.json's feature flags, ca-central-1 and the
// edge stack in us-east-1), with the Lambda bundling skipped and a small built app from the
// fixtures, into a throw-away folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildCtpo } from '../../infra/lib/app.ts';
import type { CtpoStack } from '../../infra/lib/ctpo-stack.ts';
import type { CtpoEdgeStack } from '../../infra/lib/edge.ts';
import type { CtpoParameters } from '../../infra/lib/parameters.ts';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURE_WEB_DIST = join(import.meta.dirname, 'fixtures', 'web-dist');

const featureFlags = (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

export interface Synthesized {
  app: App;
  stack: CtpoStack;
  template: Template;
  edge: CtpoEdgeStack;
  edgeTemplate: Template;
  outdir: string;
  /** Removes the synthesized files. */
  dispose(): void;
}

export interface SynthesizeOptions {
  /** Run the cdk-nag AwsSolutions checks, as the app does. */
  nag?: boolean;
  /** Changes to the stack before it is synthesized. */
  alter?: (stack: CtpoStack) => void;
  /** The account, as `cdk deploy` knows it from the credentials; synth in tests knows none. */
  account?: string;
}

export function synthesize(parameters: Partial<Omit<CtpoParameters, 'stackName'>> = {}, options: SynthesizeOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'ctpo-cdk-'));
  const app = new App({ outdir, context: { ...featureFlags, 'aws:cdk:bundling-stacks': [] } });
  const { stack, edge } = buildCtpo(app, {
    parameters: { stackName: 'Ctpo', reportExpiryDays: 30, webDist: FIXTURE_WEB_DIST, devOrigins: false, ...parameters },
    region: 'ca-central-1',
    account: options.account,
  });
  options.alter?.(stack);
  if (options.nag === true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let template: Template;
  let edgeTemplate: Template;
  try {
    template = Template.fromStack(stack);
    edgeTemplate = Template.fromStack(edge);
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  return { app, stack, template, edge, edgeTemplate, outdir, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** A resource of the template: its logical id and its properties. */
export interface Found {
  id: string;
  properties: Record<string, unknown>;
}

/**
 * The one resource of `type` whose properties match `properties` (as `Template.findResources` matches:
 * objects in part, arrays whole unless `Match` says otherwise). Resources are found by what they are,
 * never by their logical ids, which CDK makes from construct paths.
 */
export function only(template: Template, type: string, properties: Record<string, unknown> = {}): Found {
  const matches = Object.entries(template.findResources(type, { Properties: properties }));
  if (matches.length !== 1) {
    throw new Error(`expected one ${type} with ${JSON.stringify(properties)}, found ${matches.length}: ${matches.map(([id]) => id).join(', ') || 'none'}`);
  }
  const [id, resource] = matches[0]!;
  return { id, properties: (resource as { Properties: Record<string, unknown> }).Properties };
}

/** The resource `id`, which another resource refers to. */
export function resource(template: Template, id: string): Found & { type: string; dependsOn: string[] } {
  const found = (template.toJSON().Resources as Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] }>)[id];
  if (found === undefined) throw new Error(`no resource ${id}`);
  return { id, type: found.Type, properties: found.Properties ?? {}, dependsOn: found.DependsOn ?? [] };
}

/** The logical id a `{ Ref }`, a `{ Fn::GetAtt }`, or the function URL host CloudFront takes from one, points at. */
export function referenceOf(value: unknown): string {
  const node = value as Record<string, unknown>;
  if (typeof node.Ref === 'string') return node.Ref;
  if (Array.isArray(node['Fn::GetAtt'])) return node['Fn::GetAtt'][0] as string;
  if (Array.isArray(node['Fn::Select'])) return referenceOf((node['Fn::Select'][1] as { 'Fn::Split': [string, unknown] })['Fn::Split'][1]);
  throw new Error(`not a reference: ${JSON.stringify(value)}`);
}

/**
 * A CloudFormation value as text, with every reference replaced by what `values` says it resolves
 * to (by logical id, or `id.Attribute`), or by `{id}` / `{id.Attribute}` when not given.
 */
export function render(value: unknown, values: Record<string, string> = {}): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const node = value as Record<string, unknown>;
  if (Array.isArray(node['Fn::Join'])) {
    const [delimiter, parts] = node['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => render(part, values)).join(delimiter);
  }
  if (typeof node.Ref === 'string') return values[node.Ref] ?? `{${node.Ref}}`;
  if (Array.isArray(node['Fn::GetAtt'])) {
    const [id, attribute] = node['Fn::GetAtt'] as [string, string];
    const key = Object.keys(values).find((candidate) => candidate === `${id}.${attribute}`);
    return key === undefined ? `{${id}.${attribute}}` : values[key]!;
  }
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}
