import { describe, expect, it } from 'vitest';
import { ParameterError, readParameters } from '../../infra/lib/parameters.ts';

const read = (context: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  readParameters({ context: (key) => context[key], env });

const problemsOf = (context: Record<string, unknown>, env: Record<string, string> = {}): readonly string[] => {
  try {
    read(context, env);
  } catch (error) {
    if (error instanceof ParameterError) return error.problems;
    throw error;
  }
  throw new Error('expected the parameters to be refused');
};

describe('deployment parameters', () => {
  it('has defaults that deploy without any setting', () => {
    expect(read()).toEqual({ stackName: 'Ctpo', reportExpiryDays: 30, webDist: 'web/dist', devOrigins: false });
  });

  it('reads context first, then the environment', () => {
    const parameters = read(
      { domainPrefix: 'acme-qa', reportExpiryDays: '90' },
      { CTPO_DOMAIN_PREFIX: 'ignored', CTPO_REPORT_EXPIRY_DAYS: '7', CTPO_STACK_NAME: 'CtpoStaging', CTPO_EXTERNAL_API_URL: 'https://qa.example.com/v1/' },
    );
    expect(parameters).toEqual({
      stackName: 'CtpoStaging',
      domainPrefix: 'acme-qa',
      reportExpiryDays: 90,
      externalApiUrl: 'https://qa.example.com/v1',
      webDist: 'web/dist',
      devOrigins: false,
    });
  });

  it('trusts the developer origins only when asked, by context or environment', () => {
    expect(read({ devOrigins: 'true' }).devOrigins).toBe(true);
    expect(read({ devOrigins: true }).devOrigins).toBe(true);
    expect(read({}, { CTPO_DEV_ORIGINS: 'TRUE' }).devOrigins).toBe(true);
    expect(read({ devOrigins: 'false' }, { CTPO_DEV_ORIGINS: 'true' }).devOrigins).toBe(false);
  });

  it('takes a custom domain with a CloudFront certificate', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666';
    expect(read({ domainName: 'CTPO.example.com', certificateArn }).customDomain).toEqual({ domainName: 'ctpo.example.com', certificateArn });
  });

  it('refuses every bad setting at once, naming where to fix it', () => {
    const problems = problemsOf({
      domainPrefix: 'My_Prefix',
      domainName: 'ctpo.example.com',
      certificateArn: 'arn:aws:acm:ca-central-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666',
      externalApiUrl: 'http://qa.example.com',
      reportExpiryDays: '0',
      stackName: '1ctpo',
    });
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/stackName \(context\) \/ CTPO_STACK_NAME/);
    expect(problems.join('\n')).toMatch(/domainPrefix.*"My_Prefix"/);
    expect(problems.join('\n')).toMatch(/certificateArn.*us-east-1/);
    expect(problems.join('\n')).toMatch(/externalApiUrl.*https:\/\//);
    expect(problems.join('\n')).toMatch(/reportExpiryDays.*1 to 3650/);
  });

  it.each([
    [{ domainPrefix: 'my-cognito-login' }, /must not contain aws, amazon, cognito/],
    [{ domainPrefix: '-ctpo' }, /lower-case letters/],
    [{ domainName: 'ctpo.example.com' }, /go together/],
    [{ domainName: 'not a host', certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666' }, /not a host name/],
    [{ externalApiUrl: 'https://user:pw@qa.example.com' }, /no credentials/],
    [{ externalApiUrl: 'https://qa.example.com/?x=1' }, /no credentials, query/],
    [{ reportExpiryDays: '2.5' }, /whole number/],
    [{ reportExpiryDays: '3651' }, /1 to 3650/],
    [{ devOrigins: 'yes' }, /devOrigins \(context\) \/ CTPO_DEV_ORIGINS \(environment\): "yes" must be true or false/],
  ])('refuses %j', (context, message) => {
    expect(problemsOf(context).join('\n')).toMatch(message);
  });

  it('says what is wrong in the error message itself', () => {
    expect(() => read({ reportExpiryDays: 'soon' })).toThrow(/Invalid deployment parameters:\n {2}- reportExpiryDays/);
  });
});
