// Where each resource of the CTPO stacks is, found by what it is: its type and the properties that
// set it apart, or what refers to it (the route CloudFront sends to a function, the rule that calls
// one). Never by logical id: CDK makes those from construct paths, which a refactoring moves.
import { Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import { only, referenceOf, resource } from './support.ts';
import type { Found } from './support.ts';

export interface Behavior {
  PathPattern?: string;
  ViewerProtocolPolicy: string;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
  LambdaFunctionAssociations?: { EventType: string; IncludeBody?: boolean; LambdaFunctionARN: unknown }[];
  CachePolicyId: unknown;
  OriginRequestPolicyId?: { Ref: string };
  ResponseHeadersPolicyId: { Ref: string };
  TargetOriginId: string;
  AllowedMethods?: string[];
}
export interface Origin {
  Id: string;
  DomainName: unknown;
  OriginAccessControlId?: { 'Fn::GetAtt': [string, string] };
  CustomOriginConfig?: Record<string, unknown>;
}
export interface DistributionConfig {
  DefaultCacheBehavior: Behavior;
  CacheBehaviors?: Behavior[];
  Origins: Origin[];
  CustomErrorResponses?: unknown;
  WebACLId?: unknown;
  Aliases?: string[];
  ViewerCertificate?: Record<string, unknown>;
}

/** The site's one distribution and its configuration. */
export function distributionOf(template: Template): Found & { config: DistributionConfig } {
  const found = only(template, 'AWS::CloudFront::Distribution');
  return { ...found, config: found.properties.DistributionConfig as DistributionConfig };
}

/** The cache behavior of a path pattern, and the origin it sends requests to. */
export function behaviorOf(template: Template, pathPattern: string): { behavior: Behavior; origin: Origin } {
  const { config } = distributionOf(template);
  const behavior = config.CacheBehaviors?.find((candidate) => candidate.PathPattern === pathPattern);
  if (behavior === undefined) throw new Error(`the distribution has no behavior for ${pathPattern}`);
  const origin = config.Origins.find((candidate) => candidate.Id === behavior.TargetOriginId);
  if (origin === undefined) throw new Error(`the behavior for ${pathPattern} names no origin`);
  return { behavior, origin };
}

/** The QA API's routes, as the distribution's path patterns. */
export const API_ROUTES = ['/api/toc', '/api/run-tests', '/api/job-status/*', '/api/jobs', '/api/jobs/*', '/api/dismissals', '/api/protocols', '/api/report-links'] as const;
export type ApiRoutePattern = (typeof API_ROUTES)[number];

/** The function URL CloudFront sends a route to: behavior, origin, URL. */
export function routeUrl(template: Template, pathPattern: ApiRoutePattern): Found {
  return resource(template, referenceOf(behaviorOf(template, pathPattern).origin.DomainName));
}

/** The Lambda function that serves a route: the target of the route's function URL. */
export function routeFunction(template: Template, pathPattern: ApiRoutePattern): Found {
  return resource(template, referenceOf(routeUrl(template, pathPattern).properties.TargetFunctionArn));
}

/** The function EventBridge calls with the runner's ECS task state changes. */
export function taskStateFunction(template: Template): Found {
  const rule = only(template, 'AWS::Events::Rule', { EventPattern: { source: ['aws.ecs'], 'detail-type': ['ECS Task State Change'] } });
  const [target] = rule.properties.Targets as { Arn: unknown }[];
  return resource(template, referenceOf(target!.Arn));
}

/** The function that rotates the report-link key. */
export function rotationFunction(template: Template): Found {
  return resource(template, referenceOf(only(template, 'AWS::SecretsManager::RotationSchedule').properties.RotationLambdaARN));
}

/** The jobs table: keyed by job id. */
export function jobsTable(template: Template): Found {
  return only(template, 'AWS::DynamoDB::GlobalTable', { KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] });
}

/** The dismissals table: keyed by course and finding fingerprint. */
export function dismissalsTable(template: Template): Found {
  return only(template, 'AWS::DynamoDB::GlobalTable', {
    KeySchema: [
      { AttributeName: 'course', KeyType: 'HASH' },
      { AttributeName: 'fingerprint', KeyType: 'RANGE' },
    ],
  });
}

/** The reports bucket: the one whose objects expire. */
export function reportsBucket(template: Template): Found {
  return only(template, 'AWS::S3::Bucket', { LifecycleConfiguration: { Rules: [Match.objectLike({ Id: 'expire-reports' })] } });
}

/** The KMS key that encrypts the credentials a run hands to its task. */
export function credentialsKey(template: Template): Found {
  return only(template, 'AWS::KMS::Key', { Description: Match.stringLikeRegexp('Brightspace credentials') });
}

/** The runner's task definition: the one whose container is the runner. */
export function runnerTask(template: Template): Found {
  return only(template, 'AWS::ECS::TaskDefinition', { ContainerDefinitions: [Match.objectLike({ Name: 'runner' })] });
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** The role a function runs as. */
export function roleOf(fn: Found): string {
  return referenceOf(fn.properties.Role);
}

/** Every statement of the policies attached to a role, in order. */
export function statementsOf(template: Template, roleId: string): Statement[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** A function's environment variables. */
export function environmentOf(fn: Found): Record<string, unknown> {
  return (fn.properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** The protocols table: keyed by scope (a user's protocols, a course's answers, sign-offs) and key. */
export function protocolsTable(template: Template): Found {
  return only(template, 'AWS::DynamoDB::GlobalTable', {
    KeySchema: [
      { AttributeName: 'scope', KeyType: 'HASH' },
      { AttributeName: 'key', KeyType: 'RANGE' },
    ],
  });
}

/** The verdicts table: keyed by course partition and entry. */
export function verdictsTable(template: Template): Found {
  return only(template, 'AWS::DynamoDB::GlobalTable', {
    KeySchema: [
      { AttributeName: 'course', KeyType: 'HASH' },
      { AttributeName: 'key', KeyType: 'RANGE' },
    ],
  });
}
