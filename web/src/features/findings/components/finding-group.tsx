// One problem of the findings view: a heading that opens and closes it (the problem's name, its
// severity and how many findings), then how to fix it, once, and each finding with its place. The
// headings make the groups (a screen reader moves by them); the findings alone are list items.
import { useId } from 'react';
import { useIntl } from 'react-intl';
import type { CourseKey, Dismissal } from '@/features/findings/api/dismissals';
import { checkFix, checkTitle, type CheckMessages } from '@/features/findings/check-messages';
import type { FindingGroup } from '@/features/findings/finding-groups';
import { FindingItem } from '@/features/findings/components/finding-item';

interface FindingGroupProps {
  group: FindingGroup;
  texts: CheckMessages;
  open: boolean;
  onToggle: (open: boolean) => void;
  /** The report's language, for the texts that come from it. */
  language: string;
  dismissals: Map<string, Dismissal>;
  course: CourseKey;
  onChange: (fingerprint: string, dismissal: Dismissal | null) => void;
}

export function FindingGroupView({ group, texts, open, onToggle, language, dismissals, course, onChange }: FindingGroupProps) {
  const intl = useIntl();
  const bodyId = useId();
  const fix = checkFix(texts, group.check);
  const severity = group.review ? 'review' : group.severity;
  return (
    <div className={`finding-group finding-group--${group.severity}`}>
      <h3 className="finding-group__heading">
        <button type="button" className="finding-group__toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => onToggle(!open)}>
          <span className="finding-group__title">{checkTitle(texts, group.check)}</span>{' '}
          <span className={`finding-item__severity finding-item__severity--${group.severity}`}>{intl.formatMessage({ id: `findings.severity.${severity}` })}</span>{' '}
          <span className="finding-group__count">{intl.formatMessage({ id: 'findings.findingCount' }, { count: group.findings.length })}</span>
        </button>
      </h3>
      <div id={bodyId} className="finding-group__body" hidden={!open}>
        {fix !== null && <p className="finding-group__fix">{intl.formatMessage({ id: 'findings.fix' }, { fix })}</p>}
        <p className="finding-group__check">
          {intl.formatMessage({ id: 'findings.checkId' })} <code>{group.check}</code>
        </p>
        <ul className="findings-view__list">
          {group.findings.map((finding) => (
            <FindingItem key={finding.fingerprint} finding={finding} language={language} dismissal={dismissals.get(finding.fingerprint)} course={course} onChange={onChange} />
          ))}
        </ul>
      </div>
    </div>
  );
}
