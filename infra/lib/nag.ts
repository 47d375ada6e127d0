// cdk-nag acknowledgements that name a wildcard resource exactly. cdk-nag 3 matches a finding only
// by its full id, and an id holds the resource as CloudFormation renders it (`<LogicalId.Arn>/*`,
// `<AWS::AccountId>`), which changes with logical ids and with whether the account is known at
// synth. These helpers build the id from the very value granted, so the acknowledgement follows it.
import { Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/** A resolved CloudFormation value flattened the way cdk-nag names it in a finding id. */
function flatten(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const value = node as Record<string, unknown>;
    if (Array.isArray(value['Fn::Join'])) {
      const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (value['Fn::Sub'] !== undefined) return flatten(value['Fn::Sub']);
    if (Array.isArray(value['Fn::GetAtt'])) {
      const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
    if (value.Ref !== undefined) return `<${flatten(value.Ref)}>`;
  }
  return JSON.stringify(node);
}

/** The cdk-nag finding id for a wildcard resource granted in `scope`'s stack. */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(resource))}]`;
}

/** Acknowledges the wildcard `resource` granted to `grantee`, with the reason it is needed. */
export function acknowledgeWildcardResource(grantee: IConstruct, resource: string, reason: string): void {
  Validations.of(grantee).acknowledge({ id: wildcardResourceFinding(grantee, resource), reason });
}

/**
 * Acknowledges every wildcard in the policy a CDK-made role holds now. Only for roles whose policy
 * CDK writes itself (e.g. the BucketDeployment handler); a statement added later is not covered and
 * fails the check, as it should.
 */
export function acknowledgeGeneratedPolicyWildcards(role: iam.IRole, reason: string): void {
  const policy = role.node.tryFindChild('DefaultPolicy')?.node.defaultChild as iam.CfnPolicy | undefined;
  if (policy === undefined) return;
  const document = Stack.of(role).resolve(policy.policyDocument) as { Statement?: { Effect?: string; Action?: unknown; Resource?: unknown }[] };
  const ids = new Set<string>();
  const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  for (const statement of document.Statement ?? []) {
    if (statement.Effect !== 'Allow') continue;
    for (const action of asList(statement.Action)) {
      if (typeof action === 'string' && action.includes('*')) ids.add(`AwsSolutions-IAM5[Action::${action}]`);
    }
    for (const resource of asList(statement.Resource)) {
      const flat = flatten(resource);
      if (flat.includes('*')) ids.add(`AwsSolutions-IAM5[Resource::${flat}]`);
    }
  }
  Validations.of(role).acknowledge(...[...ids].map((id) => ({ id, reason })));
}
