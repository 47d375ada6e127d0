import { useIntl, type IntlShape } from 'react-intl';
import type { ConfigProblem } from '@/lib/runtime-config';

function describe(problem: ConfigProblem, intl: IntlShape): string {
  switch (problem.kind) {
    case 'unreachable':
      return intl.formatMessage({ id: 'config.problem.unreachable' });
    case 'http':
      return intl.formatMessage({ id: 'config.problem.http' }, { status: problem.status });
    case 'notJson':
      return intl.formatMessage({ id: 'config.problem.notJson' });
    case 'notObject':
      return intl.formatMessage({ id: 'config.problem.notObject' });
    default:
      return intl.formatMessage({ id: `config.problem.${problem.kind}` }, { field: problem.field });
  }
}

/** Shown instead of a blank page when /config.json is missing or wrong: what is wrong and who can fix it. */
export function ConfigErrorPage({ problems }: { problems: readonly ConfigProblem[] }) {
  const intl = useIntl();
  return (
    <main className="centered-message">
      <div className="card config-error">
        <h1>{intl.formatMessage({ id: 'config.title' })}</h1>
        <p>{intl.formatMessage({ id: 'config.intro' })}</p>
        <h2>{intl.formatMessage({ id: 'config.details' })}</h2>
        <ul>
          {problems.map((problem, index) => (
            <li key={index}>{describe(problem, intl)}</li>
          ))}
        </ul>
      </div>
    </main>
  );
}
