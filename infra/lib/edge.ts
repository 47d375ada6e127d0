// What CloudFront needs from us-east-1, its home region: the web ACL that limits request rates, and
// (added by the site, with `cloudfront.experimental.EdgeFunction`) the Lambda@Edge function that
// hashes the API's request bodies. A stack of its own because WAF takes a CloudFront-scoped web ACL
// only in us-east-1; the main stack reads the ACL's ARN through a cross-region reference.
import { Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

export const EDGE_REGION = 'us-east-1';

/**
 * Requests one caller (one access token) may make to /api/* in a minute. The app polls a job every
 * 10 s, so a user watching three runs in two tabs makes about 40; a runaway script is stopped.
 */
export const API_REQUESTS_PER_CALLER_PER_MINUTE = 120;
/** Requests one IP address may make to the whole site in five minutes, tokens or not. */
export const REQUESTS_PER_ADDRESS_PER_5_MINUTES = 1500;
/**
 * How the per-caller key is normalised before it is counted: runs of white space (spaces, tabs,
 * line breaks) become one space, and letters become lower case, so `Bearer  <token>` and
 * `bearer <token>` count as the caller `Bearer <token>` is. WAF applies them in priority order.
 */
export const CALLER_KEY_TRANSFORMATIONS = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];
/** The answer to a request over either limit, in the API's error shape. */
export const RATE_LIMITED_BODY = {
  message: 'Too many requests from this address or sign-in. Wait a minute, then try again.',
  code: 'rate_limited',
} as const;

export class CtpoEdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });

    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const tooMany: wafv2.CfnWebACL.RuleActionProperty = {
      block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rate-limited', responseHeaders: [{ name: 'cache-control', value: 'no-store' }] } },
    };
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'CTPO: request rate limits per caller and per address',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('ctpo'),
      customResponseBodies: { 'rate-limited': { contentType: 'APPLICATION_JSON', content: JSON.stringify(RATE_LIMITED_BODY) } },
      rules: [
        {
          // Keyed on the bearer token itself: WAF cannot read a JWT, and a token is one signed-in
          // session. Requests without a token are not counted here; the next rule counts them. The
          // key is normalised (white space collapsed, case folded), so extra spaces or another case
          // of "Bearer" do not make a new caller; the function accepts only "Bearer <token>" with
          // single spaces, and counts the loads of /api/toc by the verified token's subject.
          name: 'api-per-caller',
          priority: 0,
          action: tooMany,
          visibilityConfig: visibility('ctpo-api-per-caller'),
          statement: {
            rateBasedStatement: {
              limit: API_REQUESTS_PER_CALLER_PER_MINUTE,
              evaluationWindowSec: 60,
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [{ header: { name: 'authorization', textTransformations: CALLER_KEY_TRANSFORMATIONS } }],
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
        },
        {
          name: 'per-address',
          priority: 1,
          action: tooMany,
          visibilityConfig: visibility('ctpo-per-address'),
          statement: { rateBasedStatement: { limit: REQUESTS_PER_ADDRESS_PER_5_MINUTES, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
        },
      ],
    });
  }
}
