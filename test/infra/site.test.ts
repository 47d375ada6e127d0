import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CSP } from '../../api/report/report-csp.ts';
import { SPA_REWRITE_SOURCE } from '../../infra/lib/site.ts';
import { parseRuntimeConfig } from '../../web/src/lib/runtime-config.ts';
import { render, resourceNamed, synthesize } from './support.ts';
import type { Synthesized } from './support.ts';

const CERTIFICATE = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666';
// Managed policies, by id: CachingDisabled and AllViewerExceptHostHeader.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

interface Behavior {
  PathPattern?: string;
  ViewerProtocolPolicy: string;
  FunctionAssociations?: unknown[];
  CachePolicyId: unknown;
  OriginRequestPolicyId?: unknown;
  ResponseHeadersPolicyId: { Ref: string };
  TargetOriginId: string;
  AllowedMethods?: string[];
}
interface DistributionConfig {
  DefaultCacheBehavior: Behavior;
  CacheBehaviors?: Behavior[];
  Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown; CustomOriginConfig?: Record<string, unknown> }[];
  CustomErrorResponses?: unknown;
  Aliases?: string[];
  ViewerCertificate?: Record<string, unknown>;
}

function distributionOf(synth: Synthesized): DistributionConfig {
  return resourceNamed(synth.template, 'AWS::CloudFront::Distribution', 'SiteDistribution').properties.DistributionConfig as DistributionConfig;
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
  const shell = resourceNamed(synth.template, 'Custom::CDKBucketDeployment', 'SiteDeployShell').properties as {
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
    const bucket = resourceNamed(synth.template, 'AWS::S3::Bucket', 'SiteBucket');
    expect(bucket.properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    const policy = resourceNamed(synth.template, 'AWS::S3::BucketPolicy', 'SiteBucketPolicy').properties.PolicyDocument as {
      Statement: { Effect: string; Principal: unknown; Action: unknown; Condition?: Record<string, Record<string, unknown>> }[];
    };
    const reads = policy.Statement.filter((statement) => statement.Effect === 'Allow' && statement.Action === 's3:GetObject');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(render(reads[0]!.Condition?.StringEquals?.['AWS:SourceArn'])).toMatch(/:cloudfront::\{AWS::AccountId\}:distribution\/\{SiteDistribution\w+\}$/);
    expect(policy.Statement).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    const distribution = distributionOf(synth);
    const appOrigin = distribution.Origins.find((origin) => origin.Id === distribution.DefaultCacheBehavior.TargetOriginId);
    expect(render(appOrigin?.DomainName)).toBe(`{${bucket.id}.RegionalDomainName}`);
    expect(appOrigin?.OriginAccessControlId).toBeDefined();
    synth.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' }),
    });
  });

  it('serves index.html for app routes from a viewer-request function on the app behaviour only', () => {
    const distribution = distributionOf(synth);
    const spa = resourceNamed(synth.template, 'AWS::CloudFront::Function', 'SiteSpaRewrite');
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [spa.id, 'FunctionARN'] } },
    ]);
    for (const behavior of distribution.CacheBehaviors ?? []) expect(behavior.FunctionAssociations).toBeUndefined();
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

  it('puts the API on the same origin under /api/*: HTTPS only, uncached, with the Authorization header', () => {
    const distribution = distributionOf(synth);
    const api = distribution.CacheBehaviors?.find((behavior) => behavior.PathPattern === '/api/*');
    expect(api).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'OPTIONS']),
    });
    const origin = distribution.Origins.find((candidate) => candidate.Id === api?.TargetOriginId);
    expect(JSON.stringify(origin?.DomainName)).toMatch(/QaApiHttpApi\w+","ApiEndpoint"/);
    expect(origin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });

  it('serves the reports under /reports/* from the private reports bucket', () => {
    const distribution = distributionOf(synth);
    const reports = distribution.CacheBehaviors?.find((behavior) => behavior.PathPattern === '/reports/*');
    expect(reports?.ViewerProtocolPolicy).toBe('redirect-to-https');
    const origin = distribution.Origins.find((candidate) => candidate.Id === reports?.TargetOriginId);
    expect(render(origin?.DomainName)).toMatch(/^\{QaApiReports\w+\.RegionalDomainName\}$/);
    expect(origin?.OriginAccessControlId).toBeDefined();
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('allows scripts and connections only to the app, Cognito and the API', () => {
    const csp = cspOf(synth, distributionOf(synth).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref);
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.ca-central-1.amazonaws.com',
      expect.stringMatching(/^https:\/\/\{IdentityUserPoolHostedLogin\w+\}\.auth\.ca-central-1\.amazoncognito\.com$/),
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
    const reports = distributionOf(synth).CacheBehaviors?.find((behavior) => behavior.PathPattern === '/reports/*');
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
    const assets = resourceNamed(synth.template, 'Custom::CDKBucketDeployment', 'SiteDeployAssets');
    expect(assets.properties).toMatchObject({
      DestinationBucketKeyPrefix: 'assets/',
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    const shell = resourceNamed(synth.template, 'Custom::CDKBucketDeployment', 'SiteDeployShell');
    expect(shell.properties).toMatchObject({ Prune: false, SystemMetadata: { 'cache-control': 'no-cache' }, DistributionPaths: ['/*'] });
    // index.html only after the chunks it names.
    expect(synth.template.toJSON().Resources[shell.id].DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^SiteDeployAssets/)]));
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
    const pool = resourceNamed(synth.template, 'AWS::Cognito::UserPool', 'IdentityUserPool').id;
    const client = resourceNamed(synth.template, 'AWS::Cognito::UserPoolClient', 'IdentityUserPoolWebClient').id;
    const domain = resourceNamed(synth.template, 'AWS::Cognito::UserPoolDomain', 'IdentityUserPoolHostedLogin').id;
    const distribution = resourceNamed(synth.template, 'AWS::CloudFront::Distribution', 'SiteDistribution').id;
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
    expect(distributionOf(synth)).toMatchObject({
      Aliases: ['ctpo.example.com'],
      ViewerCertificate: { AcmCertificateArn: CERTIFICATE, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
  });

  it('deploys no API of its own and points the app and its CSP at the existing one', () => {
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    synth.template.resourceCountIs('AWS::ECS::TaskDefinition', 0);
    synth.template.resourceCountIs('AWS::S3::Bucket', 1);
    expect(distributionOf(synth).CacheBehaviors).toBeUndefined();
    const csp = cspOf(synth, distributionOf(synth).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref);
    expect(directive(csp, 'connect-src')).toContain('https://qa-api.example.org');
    const config = deployedConfig(synth, {}) as Record<string, unknown>;
    expect(config).toMatchObject({ siteUrl: 'https://ctpo.example.com/', apiUrl: 'https://qa-api.example.org/prod' });
  });
});
