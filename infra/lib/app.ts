// The two stacks of a deployment, built the same way by `cdk synth` and by the tests: the edge
// stack in us-east-1 (what CloudFront must have there) and the CTPO stack, which depends on it.
import type { App } from 'aws-cdk-lib';
import { CtpoStack } from './ctpo-stack.ts';
import { CtpoEdgeStack, EDGE_REGION } from './edge.ts';
import type { CtpoParameters } from './parameters.ts';

export interface CtpoApp {
  edge: CtpoEdgeStack;
  stack: CtpoStack;
}

export function buildCtpo(app: App, options: { parameters: CtpoParameters; region: string; account?: string | undefined }): CtpoApp {
  const { stackName, ...parameters } = options.parameters;
  const account = options.account === undefined ? {} : { account: options.account };
  const edgeStackId = `${stackName}Edge`;
  const edge = new CtpoEdgeStack(app, edgeStackId, {
    env: { ...account, region: EDGE_REGION },
    description: 'CTPO: what CloudFront needs in us-east-1 (rate-limiting web ACL, API body hashing at the edge)',
  });
  const stack = new CtpoStack(app, stackName, {
    env: { ...account, region: options.region },
    description: 'CTPO: Course Testing Protocol Observer (site, sign-in and QA API)',
    parameters,
    edge: { stackId: edgeStackId, webAclArn: edge.webAcl.attrArn },
  });
  return { edge, stack };
}
