import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { Grouping, GroupingAwareStack, isGrouped, logicalIdOutsideGroupings } from '../../infra/lib/logical-ids.ts';
import { synthesize } from './support.ts';

/** Resources with children, as most are: a bucket and its policy, a table, a function and its role. */
function storage(scope: Construct): void {
  new s3.Bucket(scope, 'Reports', { enforceSSL: true });
  new dynamodb.TableV2(scope, 'Jobs', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const fn = new lambda.Function(scope, 'Expire', { runtime: lambda.Runtime.NODEJS_24_X, handler: 'index.handler', code: lambda.Code.fromInline('export const handler = () => {};') });
  // A version names itself after its code (overrideLogicalId), inside a grouping as anywhere.
  void fn.currentVersion;
}

describe('groupings', () => {
  it('compute every logical ID outside groupings exactly as CDK does', () => {
    const synth = synthesize();
    try {
      let compared = 0;
      for (const stack of [synth.stack, synth.edge]) {
        for (const element of stack.node.findAll().filter((construct): construct is CfnElement => CfnElement.isCfnElement(construct))) {
          if (isGrouped(element)) continue;
          // CtpoStack leaves an ungrouped element to CDK's own naming.
          expect(logicalIdOutsideGroupings(element), element.node.path).toBe(stack.getLogicalId(element));
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(60);
    } finally {
      synth.dispose();
    }
  });

  it('leave the template as it was before their resources moved into them', () => {
    const before = new Stack(new App(), 'Before');
    storage(new Construct(before, 'QaApi'));
    const after = new GroupingAwareStack(new App(), 'After');
    const api = new Construct(after, 'QaApi');
    storage(new Grouping(new Grouping(api, 'Storage'), 'Tables'));
    expect(Template.fromStack(after).toJSON()).toEqual(Template.fromStack(before).toJSON());
    expect(Object.keys(Template.fromStack(after).toJSON().Resources as object)).toHaveLength(6);
  });

  it('refuse a stack that would rename what they hold', () => {
    const stack = new Stack(new App(), 'Plain');
    storage(new Grouping(stack, 'Storage'));
    expect(() => Template.fromStack(stack)).toThrow(/Plain\/Storage\/Reports\/Resource would be named StorageReports\w+, not Reports\w+: a grouping must sit in a GroupingAwareStack/);
  });

  it('refuse two resources that would then have one logical ID', () => {
    const stack = new GroupingAwareStack(new App(), 'Twice');
    storage(new Grouping(stack, 'Storage'));
    new s3.Bucket(new Grouping(stack, 'Runner'), 'Reports');
    expect(() => Template.fromStack(stack)).toThrow(/already contains 'Reports\w+'/);
  });
});
