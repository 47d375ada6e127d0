import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../api/local/identity/identity-provider.ts';
import { behaviorOf, distributionOf } from './resources.ts';
import { only, referenceOf, resource, synthesize } from './support.ts';
import type { Synthesized } from './support.ts';

describe('the identity construct', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

  it('makes a user pool nobody can sign up to, signing in by e-mail, kept when the stack goes', () => {
    synth.template.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        UsernameAttributes: ['email'],
        UsernameConfiguration: { CaseSensitive: false },
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: 12,
            RequireLowercase: true,
            RequireUppercase: true,
            RequireNumbers: true,
            RequireSymbols: true,
            TemporaryPasswordValidityDays: 3,
          },
        },
        AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      }),
    });
  });

  it('makes the web client: authorization code only, three scopes, no secret, the site as the only callback, short-lived tokens', () => {
    const { properties } = only(synth.template, 'AWS::Cognito::UserPoolClient');
    expect(properties).toMatchObject({
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      SupportedIdentityProviders: ['COGNITO'],
      // No direct sign-in (SRP, password, custom): only the hosted login's tokens, whose scopes do
      // not let a user rewrite their own attributes (the e-mail their records are kept under).
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      // At most 15 minutes: a token still held after sign-out cannot be used for long.
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes' },
    });
    // The local stand-in's tokens last as long, so the app meets the same expiry locally.
    expect(properties.AllowedOAuthScopes).not.toContain('aws.cognito.signin.user.admin');
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe((properties.AccessTokenValidity as number) * 60);
    const siteUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionOf(synth.template).id, 'DomainName'] }, '/']] };
    for (const urls of [properties.CallbackURLs, properties.LogoutURLs]) {
      expect(urls).toEqual([siteUrl]);
    }
    expect(JSON.stringify(synth.template.toJSON())).not.toMatch(/localhost/);
  });

  it('lets the developer origins sign in only when the deployment asks for them', () => {
    const dev = synthesize({ devOrigins: true });
    try {
      const { properties } = only(dev.template, 'AWS::Cognito::UserPoolClient');
      for (const urls of [properties.CallbackURLs, properties.LogoutURLs] as unknown[][]) {
        expect(urls.slice(0, 2)).toEqual(['http://localhost:5173/', 'https://localhost:8443/']);
        expect(urls).toHaveLength(3);
      }
      // And the API's edge (the viewer-request function of the API's routes) answers their CORS preflights.
      const gate = referenceOf(behaviorOf(dev.template, '/api/toc').behavior.FunctionAssociations![0]!.FunctionARN);
      expect(resource(dev.template, gate).properties.FunctionCode).toContain(
        'var DEV_ORIGINS = ["http://localhost:5173","https://localhost:8443"];',
      );
    } finally {
      dev.dispose();
    }
  });

  it('serves the hosted login on a prefix unique to the account, with managed login and its branding', () => {
    synth.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: { 'Fn::Join': ['-', ['ctpo', { Ref: 'AWS::AccountId' }]] },
      ManagedLoginVersion: 2,
    });
    const client = only(synth.template, 'AWS::Cognito::UserPoolClient');
    synth.template.hasResourceProperties('AWS::Cognito::ManagedLoginBranding', {
      ClientId: { Ref: client.id },
      UseCognitoProvidedValues: true,
    });
  });

  it('uses the domain prefix it is given, and a custom domain as the sign-in address', () => {
    const custom = synthesize({
      domainPrefix: 'acme-ctpo',
      customDomain: { domainName: 'ctpo.example.com', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666' },
    });
    try {
      custom.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-ctpo' });
      const { properties } = only(custom.template, 'AWS::Cognito::UserPoolClient');
      expect(properties.CallbackURLs).toEqual(['https://ctpo.example.com/']);
    } finally {
      custom.dispose();
    }
  });
});
