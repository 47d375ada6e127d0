// One signed-in user cannot hold the API's capacity: the edge counts a caller by a normalised
// Authorization header (padded or re-cased "Bearer" headers are one caller), the function takes only
// the header as the app sends it, /api/toc counts its loads per verified user on AWS too (in the
// jobs table, on keys no job can have), and every function has a share of concurrency of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_KEY_PREFIX } from '../../api/aws/dynamo-concurrency-limit.ts';
import { bearerTokenOf } from '../../api/http/access-token.ts';
import { CALLER_KEY_TRANSFORMATIONS } from '../../infra/lib/edge.ts';
import { API_ROUTES, roleOf, routeFunction, statementsOf, taskStateFunction } from './resources.ts';
import { only, synthesize } from './support.ts';
import type { Synthesized } from './support.ts';

/** WAF's text transformations as AWS documents them, for those the rule uses. */
const WAF_TRANSFORMATIONS: Record<string, (text: string) => string> = {
  // "Replace whitespace characters (tab, newline, carriage return, vertical tab, form feed, space) with spaces, and multiple spaces with one."
  COMPRESS_WHITE_SPACE: (text) => text.replace(/[\t\n\r\v\f ]+/g, ' '),
  LOWERCASE: (text) => text.toLowerCase(),
};

describe('limits one caller cannot get around', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

  it('counts padded and re-cased Bearer headers as one caller at the edge, and the function takes only the plain one', () => {
    const acl = only(synth.edgeTemplate, 'AWS::WAFv2::WebACL').properties as { Rules: { Name: string; Statement: { RateBasedStatement: { CustomKeys: { Header: { TextTransformations: { Priority: number; Type: string }[] } }[] } } }[] };
    const rule = acl.Rules.find((candidate) => candidate.Name === 'api-per-caller')!;
    const transformations = rule.Statement.RateBasedStatement.CustomKeys[0]!.Header.TextTransformations.sort((a, b) => a.Priority - b.Priority);
    expect(transformations.map(({ Type }) => Type)).toEqual(CALLER_KEY_TRANSFORMATIONS.map(({ type }) => type));
    const keyOf = (header: string) => transformations.reduce((text, { Type }) => WAF_TRANSFORMATIONS[Type]!(text), header);

    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLWEifQ.c2lnbmF0dXJl';
    const variants = [`Bearer  ${token}`, `Bearer        ${token}`, `Bearer\t${token}`, `bearer ${token}`, `BEARER   ${token}`];
    for (const header of variants) expect(keyOf(header), JSON.stringify(header)).toBe(keyOf(`Bearer ${token}`));
    // Padding at the end would still make a key of its own at the edge: the function refuses it at once.
    expect(bearerTokenOf(`Bearer ${token}`)).toBe(token);
    for (const header of [...variants, `Bearer ${token} `, ` Bearer ${token}`]) expect(() => bearerTokenOf(header), JSON.stringify(header)).toThrow();
  });

  it('lets the tables-of-contents function count loads in the jobs table only on limit keys', () => {
    const statements = statementsOf(synth.template, roleOf(routeFunction(synth.template, '/api/toc')));
    const dynamo = statements.filter((statement) => JSON.stringify(statement.Action).includes('dynamodb:'));
    expect(dynamo).toHaveLength(1);
    expect(dynamo[0]).toMatchObject({ Action: 'dynamodb:UpdateItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LIMIT_KEY_PREFIX}toc:*`] } } });
  });

  it('gives every function a reserved share of concurrency', () => {
    const functions = [...API_ROUTES.map((pattern) => routeFunction(synth.template, pattern)), taskStateFunction(synth.template)];
    const reserved = functions.map((fn) => fn.properties.ReservedConcurrentExecutions as number);
    for (const share of reserved) expect(share).toBeGreaterThan(0);
    // The account keeps at least 100 unreserved of its default 1,000.
    expect(reserved.reduce((sum, share) => sum + share, 0)).toBeLessThanOrEqual(1000 - 100);
  });
});
