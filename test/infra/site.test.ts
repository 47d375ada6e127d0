import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CSP } from '../../api/report/report-csp.ts';
import { REPORT_GATE_FILE, SPA_REWRITE_SOURCE, apiGateSource } from '../../infra/lib/site.ts';
import { parseRuntimeConfig } from '../../web/src/lib/runtime-config.ts';
import { distributionOf, environmentOf, reportsBucket } from './resources.ts';
import type { DistributionConfig } from './resources.ts';
import { only, referenceOf, render, resource, synthesize } from './support.ts';
import type { Found, Synthesized } from './support.ts';

const CERTIFICATE = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666';
// Managed policy, by id: CachingDisabled.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

function configOf(synth: Synthesized): DistributionConfig {
  return distributionOf(synth.template).config;
}

/** The deployment of the app's root files (index.html, config.json): the one that invalidates the cache. */
function shellDeployment(synth: Synthesized): Found {
  return only(synth.template, 'Custom::CDKBucketDeployment', { DistributionPaths: ['/*'] });
}

function cspOf(synth: Synthesized, policyId: string): string {
  const policy = synth.template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId] as {
    Properties: { ResponseHeadersPolicyConfig: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } } };
  };
  return render(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
}

function directive(csp: string, name: string): string[] | undefined {
  const found = csp.split(';').map((part) => part.trim().split(/\s+/)).find(([key]) => key === name);
  return found?.slice(1);
}

/** The config.json the stack deploys, with its deploy-time values filled in as CloudFormation would. */
function deployedConfig(synth: Synthesized, values: Record<string, string>): unknown {
  const shell = shellDeployment(synth).properties as {
    SourceObjectKeys: string[];
    SourceMarkers: Record<string, unknown>[];
  };
  const index = shell.SourceMarkers.findIndex((markers) => Object.keys(markers).length > 0);
  const assetDir = join(synth.outdir, `asset.${shell.SourceObjectKeys[index]!.replace(/\.zip$/, '')}`);
  let text = readFileSync(join(assetDir, 'config.json'), 'utf8');
  for (const [marker, reference] of Object.entries(shell.SourceMarkers[index]!)) {
    text = text.split(marker).join(render(reference, values));
  }
  return JSON.parse(text);
}

describe('the site construct', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

  it('keeps the app in a private, encrypted bucket that only the distribution reads', () => {
    // The bucket the app is deployed to.
    const bucket = resource(synth.template, referenceOf(shellDeployment(synth).properties.DestinationBucketName));
    expect(bucket.properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    const policy = only(synth.template, 'AWS::S3::BucketPolicy', { Bucket: { Ref: bucket.id } }).properties.PolicyDocument as {
      Statement: { Effect: string; Principal: unknown; Action: unknown; Condition?: Record<string, Record<string, unknown>> }[];
    };
    const reads = policy.Statement.filter((statement) => statement.Effect === 'Allow' && statement.Action === 's3:GetObject');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(render(reads[0]!.Condition?.StringEquals?.['AWS:SourceArn'])).toMatch(new RegExp(`:cloudfront::\\{AWS::AccountId\\}:distribution/\\{${distributionOf(synth.template).id}\\}$`));
    expect(policy.Statement).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    const distribution = configOf(synth);
    const appOrigin = distribution.Origins.find((origin) => origin.Id === distribution.DefaultCacheBehavior.TargetOriginId);
    expect(render(appOrigin?.DomainName)).toBe(`{${bucket.id}.RegionalDomainName}`);
    expect(appOrigin?.OriginAccessControlId).toBeDefined();
    synth.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' }),
    });
  });

  it('serves index.html for app routes from a viewer-request function on the app behaviour only', () => {
    const distribution = configOf(synth);
    const spa = only(synth.template, 'AWS::CloudFront::Function', { FunctionCode: SPA_REWRITE_SOURCE });
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [spa.id, 'FunctionARN'] } },
    ]);
    for (const behavior of distribution.CacheBehaviors ?? []) expect(JSON.stringify(behavior.FunctionAssociations ?? [])).not.toContain(spa.id);
    // Error pages would turn an API's 403 or a missing script into index.html for every path.
    expect(distribution.CustomErrorResponses).toBeUndefined();
    expect(spa.properties).toMatchObject({ FunctionCode: SPA_REWRITE_SOURCE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
  });

  it.each([
    ['/', '/index.html'],
    ['/jobs/abc-123', '/index.html'],
    ['/v1.2/help', '/index.html'],
    ['/index.html', '/index.html'],
    ['/config.json', '/config.json'],
    ['/assets/index-3f9a1c2b.js', '/assets/index-3f9a1c2b.js'],
    ['/favicon.svg', '/favicon.svg'],
  ])('the rewrite function sends %s to %s', (uri, expected) => {
    // The function's own source, run as CloudFront runs it: handler(event) returns the request.
    const handler = new Function(`${SPA_REWRITE_SOURCE}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
    expect(handler({ request: { uri } }).uri).toBe(expected);
  });

  it('puts the API on the same origin under /api/: HTTPS only, uncached, each route to its function URL, signed by CloudFront', () => {
    const distribution = configOf(synth);
    const gate = only(synth.template, 'AWS::CloudFront::Function', { FunctionCode: apiGateSource([]) }).id;
    // Each route's function, told apart by the settings only its code reads (the table of contents reads none of them).
    const distinctive = ['CTPO_TASK_DEFINITION_ARN', 'CTPO_CLUSTER_ARN', 'CTPO_REPORT_KEY_SECRET_ARN', 'CTPO_DISMISSALS_TABLE', 'CTPO_PROTOCOLS_TABLE', 'CTPO_REPORTS_BUCKET'];
    const routes = {
      '/api/toc': [[], true],
      '/api/run-tests': [['CTPO_CLUSTER_ARN', 'CTPO_TASK_DEFINITION_ARN'], true],
      '/api/job-status/*': [['CTPO_CLUSTER_ARN', 'CTPO_REPORT_KEY_SECRET_ARN'], false],
      '/api/jobs': [['CTPO_PROTOCOLS_TABLE', 'CTPO_REPORT_KEY_SECRET_ARN'], false],
      // Cancelling a run: the cluster its task runs in, and no report key (a cancelled run has no report).
      '/api/jobs/*': [['CTPO_CLUSTER_ARN'], false],
      // PUT carries a body, so the route gets the body hash too.
      '/api/dismissals': [['CTPO_DISMISSALS_TABLE'], true],
      '/api/protocols': [['CTPO_PROTOCOLS_TABLE', 'CTPO_REPORTS_BUCKET'], true],
      '/api/protocols/runs/*': [['CTPO_PROTOCOLS_TABLE', 'CTPO_REPORTS_BUCKET'], true],
      '/api/*': [['CTPO_CLUSTER_ARN', 'CTPO_REPORT_KEY_SECRET_ARN'], false],
    } as const;
    const reached = new Map<string, string>();
    for (const [pattern, [settings, post]] of Object.entries(routes)) {
      const behavior = distribution.CacheBehaviors?.find((candidate) => candidate.PathPattern === pattern);
      expect(behavior, pattern).toMatchObject({
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']),
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [gate, 'FunctionARN'] } }],
      });
      if (post) {
        expect(behavior!.LambdaFunctionAssociations, pattern).toEqual([expect.objectContaining({ EventType: 'origin-request', IncludeBody: true })]);
      } else {
        expect(behavior!.LambdaFunctionAssociations, pattern).toBeUndefined();
      }
      const origin = distribution.Origins.find((candidate) => candidate.Id === behavior!.TargetOriginId)!;
      const url = resource(synth.template, referenceOf(origin.DomainName));
      expect(url.type, pattern).toBe('AWS::Lambda::Url');
      expect(url.properties.AuthType, pattern).toBe('AWS_IAM');
      const fn = resource(synth.template, referenceOf(url.properties.TargetFunctionArn));
      expect(Object.keys(environmentOf(fn)).filter((name) => distinctive.includes(name)).sort(), pattern).toEqual(settings);
      reached.set(pattern, fn.id);
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginReadTimeout: 30 });
      const control = synth.template.findResources('AWS::CloudFront::OriginAccessControl')[origin.OriginAccessControlId!['Fn::GetAtt'][0]] as {
        Properties: { OriginAccessControlConfig: Record<string, string> };
      };
      expect(control.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 'lambda', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    }
    // One function per route; any other /api/ path goes where job-status goes, whose gate answers it.
    expect(new Set(reached.values()).size).toBe(7);
    expect(reached.get('/api/protocols/runs/*')).toBe(reached.get('/api/protocols'));
    expect(reached.get('/api/*')).toBe(reached.get('/api/job-status/*'));
    // Only what the functions read goes to them: no cookies, no query, no viewer Authorization.
    const policyId = distribution.CacheBehaviors!.find((candidate) => candidate.PathPattern === '/api/toc')!.OriginRequestPolicyId!.Ref;
    const policy = synth.template.findResources('AWS::CloudFront::OriginRequestPolicy')[policyId] as { Properties: { OriginRequestPolicyConfig: Record<string, unknown> } };
    expect(policy.Properties.OriginRequestPolicyConfig).toMatchObject({
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['content-type', 'accept', 'origin', 'x-ctpo-authorization', 'x-ctpo-site-host'] },
      CookiesConfig: { CookieBehavior: 'none' },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
    });
    // The history routes read their query, and only the names they know.
    for (const pattern of ['/api/jobs', '/api/dismissals', '/api/protocols']) {
      const historyId = distribution.CacheBehaviors!.find((candidate) => candidate.PathPattern === pattern)!.OriginRequestPolicyId!.Ref;
      const history = synth.template.findResources('AWS::CloudFront::OriginRequestPolicy')[historyId] as { Properties: { OriginRequestPolicyConfig: Record<string, unknown> } };
      expect(history.Properties.OriginRequestPolicyConfig, pattern).toMatchObject({
        HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['content-type', 'accept', 'origin', 'x-ctpo-authorization', 'x-ctpo-site-host'] },
        CookiesConfig: { CookieBehavior: 'none' },
        QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['limit', 'cursor', 'siteUrl', 'orgUnitId', 'fingerprint', 'client'] },
      });
    }
  });

  it('hashes POST bodies at the edge with a Lambda@Edge function that lives in us-east-1', () => {
    synth.edgeTemplate.hasResourceProperties('AWS::Lambda::Function', { Runtime: 'nodejs22.x', Handler: 'index.handler', MemorySize: 128, Timeout: 5 });
    const toc = configOf(synth).CacheBehaviors!.find((candidate) => candidate.PathPattern === '/api/toc')!;
    // The version's ARN comes across regions through a parameter read at deploy time.
    const reader = only(synth.template, 'Custom::CrossRegionStringParameterReader', { Region: 'us-east-1' }).id;
    expect(referenceOf(toc.LambdaFunctionAssociations![0]!.LambdaFunctionARN)).toBe(reader);
  });

  it('puts the whole distribution behind the rate-limiting web ACL from us-east-1', () => {
    const webAcl = only(synth.edgeTemplate, 'AWS::WAFv2::WebACL');
    // The edge stack's output of the web ACL's ARN.
    const outputs = synth.edgeTemplate.toJSON().Outputs as Record<string, { Value: unknown }>;
    const [aclArnOutput] = Object.keys(outputs).filter((name) => JSON.stringify(outputs[name]!.Value) === JSON.stringify({ 'Fn::GetAtt': [webAcl.id, 'Arn'] }));
    expect(aclArnOutput).toBeDefined();
    expect(configOf(synth).WebACLId).toEqual({ 'Fn::GetStackOutput': { StackName: 'CtpoEdge', Region: 'us-east-1', OutputName: aclArnOutput } });
    const acl = webAcl.properties as {
      Scope: string;
      DefaultAction: unknown;
      Rules: { Name: string; Action: unknown; Statement: { RateBasedStatement: Record<string, unknown> } }[];
    };
    expect(acl).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    const [perCaller, perAddress] = acl.Rules;
    expect(perCaller).toMatchObject({
      Name: 'api-per-caller',
      Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rate-limited' } } },
      Statement: {
        RateBasedStatement: {
          Limit: 120,
          EvaluationWindowSec: 60,
          AggregateKeyType: 'CUSTOM_KEYS',
          CustomKeys: [{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'COMPRESS_WHITE_SPACE' }, { Priority: 1, Type: 'LOWERCASE' }] } }],
          ScopeDownStatement: { ByteMatchStatement: { SearchString: '/api/', PositionalConstraint: 'STARTS_WITH' } },
        },
      },
    });
    expect(perAddress).toMatchObject({ Name: 'per-address', Statement: { RateBasedStatement: { Limit: 1500, EvaluationWindowSec: 300, AggregateKeyType: 'IP' } } });
    expect(synth.edge.region).toBe('us-east-1');
  });

  it('serves the reports under /reports/* from the private reports bucket, only through a signed link', () => {
    const distribution = configOf(synth);
    const reports = distribution.CacheBehaviors?.find((behavior) => behavior.PathPattern === '/reports/*');
    expect(reports?.ViewerProtocolPolicy).toBe('redirect-to-https');
    const origin = distribution.Origins.find((candidate) => candidate.Id === reports?.TargetOriginId);
    expect(render(origin?.DomainName)).toBe(`{${reportsBucket(synth.template).id}.RegionalDomainName}`);
    expect(origin?.OriginAccessControlId).toBeDefined();
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    const gate = only(synth.template, 'AWS::CloudFront::Function', { FunctionCode: readFileSync(REPORT_GATE_FILE, 'utf8') });
    expect(reports?.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [gate.id, 'FunctionARN'] } }]);
    const store = only(synth.template, 'AWS::CloudFront::KeyValueStore').id;
    expect(gate.properties).toMatchObject({
      FunctionCode: readFileSync(REPORT_GATE_FILE, 'utf8'),
      FunctionConfig: { Runtime: 'cloudfront-js-2.0', KeyValueStoreAssociations: [{ KeyValueStoreARN: { 'Fn::GetAtt': [store, 'Arn'] } }] },
    });
  });

  it('allows scripts and connections only to the app, Cognito and the API', () => {
    const csp = cspOf(synth, configOf(synth).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref);
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.ca-central-1.amazonaws.com',
      `https://{${only(synth.template, 'AWS::Cognito::UserPoolDomain').id}}.auth.ca-central-1.amazoncognito.com`,
    ]);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    synth.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
  });

  it('sandboxes the reports away from the app origin and its tokens', () => {
    const reports = configOf(synth).CacheBehaviors?.find((behavior) => behavior.PathPattern === '/reports/*');
    const csp = cspOf(synth, reports!.ResponseHeadersPolicyId.Ref);
    expect(directive(csp, 'sandbox')).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    // No script at all (the report's filters are CSS), no connections, no forms.
    expect(directive(csp, 'default-src')).toEqual(["'none'"]);
    expect(directive(csp, 'script-src')).toBeUndefined();
    expect(directive(csp, 'connect-src')).toBeUndefined();
    expect(directive(csp, 'style-src')).toEqual(["'unsafe-inline'"]);
    // The very policy the local server sends.
    expect(csp).toBe(REPORT_CSP);
  });

  it('caches hashed assets for a year and index.html and config.json never', () => {
    const assets = only(synth.template, 'Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'assets/' });
    expect(assets.properties).toMatchObject({
      DestinationBucketKeyPrefix: 'assets/',
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    const shell = shellDeployment(synth);
    expect(shell.properties).toMatchObject({ Prune: false, SystemMetadata: { 'cache-control': 'no-cache' }, DistributionPaths: ['/*'] });
    // index.html only after the chunks it names.
    expect(resource(synth.template, shell.id).dependsOn).toContain(assets.id);
    // CloudFront follows each object's Cache-Control exactly: no minimum TTL to override no-cache.
    synth.template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({ MinTTL: 0, MaxTTL: 31_536_000 }),
    });
    // The shell deployment carries the build's root files but never its assets or its local config.json.
    const shellSources = (shell.properties.SourceObjectKeys as string[]).map((key) => join(synth.outdir, `asset.${key.replace(/\.zip$/, '')}`));
    const rootFiles = readFileSync(join(shellSources[0]!, 'index.html'), 'utf8');
    expect(rootFiles).toContain('/assets/index-3f9a1c2b.js');
    expect(() => readFileSync(join(shellSources[0]!, 'config.json'))).toThrow();
    expect(() => readFileSync(join(shellSources[0]!, 'assets', 'index-3f9a1c2b.js'))).toThrow();
  });

  it('writes a config.json the app accepts, with the real pool, client, domain and API', () => {
    const pool = only(synth.template, 'AWS::Cognito::UserPool').id;
    const client = only(synth.template, 'AWS::Cognito::UserPoolClient').id;
    const domain = only(synth.template, 'AWS::Cognito::UserPoolDomain').id;
    const distribution = distributionOf(synth.template).id;
    const config = deployedConfig(synth, {
      [pool]: 'ca-central-1_AbC123xyz',
      [client]: '4example5client6id7',
      [domain]: 'ctpo-111122223333',
      [`${distribution}.DomainName`]: 'd111111abcdef8.cloudfront.net',
    });
    expect(config).toEqual({
      region: 'ca-central-1',
      userPoolId: 'ca-central-1_AbC123xyz',
      userPoolClientId: '4example5client6id7',
      oauthDomain: 'ctpo-111122223333.auth.ca-central-1.amazoncognito.com',
      siteUrl: 'https://d111111abcdef8.cloudfront.net/',
      apiUrl: 'https://d111111abcdef8.cloudfront.net',
      pollIntervalMs: 10_000,
    });
    expect(parseRuntimeConfig(config)).toMatchObject({ ok: true });
  });
});

describe('the site with a custom domain and an existing QA API', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({
      customDomain: { domainName: 'ctpo.example.com', certificateArn: CERTIFICATE },
      externalApiUrl: 'https://qa-api.example.org/prod',
    });
  });
  afterAll(() => synth.dispose());

  it('answers on the custom domain with its certificate and TLS 1.2 at least', () => {
    expect(configOf(synth)).toMatchObject({
      Aliases: ['ctpo.example.com'],
      ViewerCertificate: { AcmCertificateArn: CERTIFICATE, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
  });

  it('deploys no API of its own and points the app and its CSP at the existing one', () => {
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    synth.template.resourceCountIs('AWS::ECS::TaskDefinition', 0);
    synth.template.resourceCountIs('AWS::S3::Bucket', 1);
    expect(configOf(synth).CacheBehaviors).toBeUndefined();
    const csp = cspOf(synth, configOf(synth).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref);
    expect(directive(csp, 'connect-src')).toContain('https://qa-api.example.org');
    const config = deployedConfig(synth, {}) as Record<string, unknown>;
    expect(config).toMatchObject({ siteUrl: 'https://ctpo.example.com/', apiUrl: 'https://qa-api.example.org/prod' });
  });
});
