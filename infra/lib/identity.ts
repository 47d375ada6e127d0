// Who may use CTPO: the Cognito user pool (accounts are made by an operator, never by sign-up), the
// app's web client and the hosted login pages.
import { Aws, Duration, Fn, Lazy, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

/** How long an access (and id) token is valid; the refresh token lasts 30 days. */
export const ACCESS_TOKEN_MINUTES = 15;

export interface IdentityProps {
  /** The hosted-login domain prefix; undefined means `ctpo-<account id>`. */
  domainPrefix?: string;
  /**
   * Origins (with a trailing slash) that may start a sign-in and receive the user back, besides the
   * site itself, which is added with `allowAppUrl` once it exists: the developer origins when the
   * deployment asks for them, none otherwise.
   */
  localAppUrls: readonly string[];
}

export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  /** The hosted-login host, no scheme (`<prefix>.auth.<region>.amazoncognito.com`): the app's `oauthDomain`. */
  readonly hostedLoginHost: string;
  /** Where the app refreshes tokens and signs out (Cognito's own API endpoint). */
  readonly userPoolEndpoint: string;
  private readonly appUrls: string[];

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    this.appUrls = [...props.localAppUrls];

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      // The pool holds the accounts: tearing the stack down must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason: 'TOTP MFA is offered to every user but not forced: QA staff share no privileged data through CTPO and the product owner asked for optional MFA.',
      },
      {
        id: 'AwsSolutions-COG3',
        reason: 'Threat protection needs the Plus feature plan, billed per active user; a small internal QA team does not warrant it.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason: 'The Plus feature plan is billed per active user; the Essentials plan gives managed login, MFA and the password policy CTPO needs.',
      },
    );

    this.client = this.userPool.addClient('WebClient', {
      generateSecret: false,
      preventUserExistenceErrors: true,
      // Sign-in goes through the hosted login only (signInWithRedirect); the client allows no direct
      // flow, the token refresh aside. A direct SRP sign-in would hand out a token with the
      // aws.cognito.signin.user.admin scope, with which a user could rewrite their own e-mail
      // address, the name their dismissals and sign-offs are recorded under (docs/security.md). A
      // non-empty authFlows with every flow off leaves exactly ALLOW_REFRESH_TOKEN_AUTH.
      authFlows: { userSrp: false },
      oAuth: {
        // The default also enables the implicit grant and the phone and admin scopes; the app needs
        // only the authorization code flow (PKCE is sent by Amplify) and these three scopes.
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: Lazy.list({ produce: () => this.appUrls }),
        logoutUrls: Lazy.list({ produce: () => this.appUrls }),
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      // A token cannot be taken back once issued: a short life bounds what a stolen one, or one
      // still held after sign-out, can do. Amplify refreshes both before they expire.
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      idTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      refreshTokenValidity: Duration.days(30),
    });

    const domainPrefix = props.domainPrefix ?? Fn.join('-', ['ctpo', Aws.ACCOUNT_ID]);
    this.domain = this.userPool.addDomain('HostedLogin', {
      cognitoDomain: { domainPrefix },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    // Managed login shows "Login pages unavailable" for a client without a branding; no L2 exists.
    const branding = new cognito.CfnManagedLoginBranding(this, 'HostedLoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    branding.node.addDependency(this.domain);

    this.hostedLoginHost = `${this.domain.domainName}.auth.${region}.amazoncognito.com`;
    this.userPoolEndpoint = `https://cognito-idp.${region}.amazonaws.com`;
  }

  /** Lets `url` (an origin with a trailing slash) start a sign-in and be returned to after sign-out. */
  allowAppUrl(url: string): void {
    this.appUrls.push(url);
  }
}
