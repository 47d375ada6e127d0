// What the API functions take from the edge on AWS: the app client's id read from SSM (their
// settings cannot reference the client), and the host the caller used, for report addresses.
import { describe, expect, it, vi } from 'vitest';
import { outputUrlFor, tokenVerifierFromEnv } from '../../../api/aws/lambda/http-lambda.ts';
import { SITE_HOST_HEADER } from '../../../api/aws/settings.ts';
import type { ApiRequest } from '../../../api/http/types.ts';

const request = (headers: Record<string, string>): ApiRequest => ({ method: 'GET', path: '/api/job-status/x', headers, query: new URLSearchParams() });

describe('behind CloudFront', () => {
  it('builds report addresses on the host the caller reached the site on', () => {
    expect(outputUrlFor(request({ [SITE_HOST_HEADER]: 'd111111abcdef8.cloudfront.net' }), '/reports/')).toBe('https://d111111abcdef8.cloudfront.net/reports/');
    expect(outputUrlFor(request({ [SITE_HOST_HEADER]: 'CTPO.example.com' }), '/reports/')).toBe('https://ctpo.example.com/reports/');
    // Nothing usable: left relative, which the app resolves against its own origin.
    expect(outputUrlFor(request({}), '/reports/')).toBe('/reports/');
    expect(outputUrlFor(request({ [SITE_HOST_HEADER]: 'evil.example/x?' }), '/reports/')).toBe('/reports/');
    // An absolute address is used as configured.
    expect(outputUrlFor(request({ [SITE_HOST_HEADER]: 'other.example' }), 'https://ctpo.example.com/reports/')).toBe('https://ctpo.example.com/reports/');
  });

  it('reads the client id once, when the first token arrives, and tries again after a failed read', async () => {
    const read = vi.fn<(name: string) => Promise<string>>().mockRejectedValueOnce(new Error('throttled')).mockResolvedValue('4example5client6id7');
    const verifier = tokenVerifierFromEnv({ CTPO_USER_POOL_ID: 'ca-central-1_AbC123xyz', CTPO_USER_POOL_CLIENT_ID_PARAMETER: '/ctpo/Ctpo/user-pool-client-id' }, read);
    expect(read).not.toHaveBeenCalled();
    await expect(verifier.verify('a.b.c')).rejects.toThrow('throttled');
    // The id is read now; the (malformed) token itself is then refused as unauthorized.
    await expect(verifier.verify('a.b.c')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verifier.verify('a.b.c')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(read).toHaveBeenCalledTimes(2);
    expect(read).toHaveBeenCalledWith('/ctpo/Ctpo/user-pool-client-id');
  });

  it('says which setting is missing when it has neither the id nor the parameter', () => {
    expect(() => tokenVerifierFromEnv({ CTPO_USER_POOL_ID: 'ca-central-1_AbC123xyz' })).toThrow(/CTPO_USER_POOL_CLIENT_ID_PARAMETER is not set/);
  });
});
