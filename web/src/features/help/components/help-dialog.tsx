import { useIntl } from 'react-intl';
import { Dialog } from '@/components/dialog/dialog';
import type { MessageId } from '@/lib/i18n/message-ids';
import './help-dialog.css';

const STEPS: readonly { title: MessageId; body: MessageId }[] = [
  { title: 'help.step.credentials.title', body: 'help.step.credentials.body' },
  { title: 'help.step.target.title', body: 'help.step.target.body' },
  { title: 'help.step.launch.title', body: 'help.step.launch.body' },
  { title: 'help.step.monitor.title', body: 'help.step.monitor.body' },
  { title: 'help.step.output.title', body: 'help.step.output.body' },
];

/** The five steps of a test run, in a modal dialog. */
export function HelpDialog({ onClose }: { onClose: () => void }) {
  const intl = useIntl();
  return (
    <Dialog
      title={intl.formatMessage({ id: 'help.title' })}
      closeLabel={intl.formatMessage({ id: 'help.close' })}
      onClose={onClose}
    >
      <p className="help-dialog__intro">{intl.formatMessage({ id: 'help.intro' })}</p>
      <ol className="help-dialog__steps">
        {STEPS.map((step) => (
          <li key={step.title}>
            <h3 className="help-dialog__step-title">{intl.formatMessage({ id: step.title })}</h3>
            <p className="help-dialog__step-body">{intl.formatMessage({ id: step.body })}</p>
          </li>
        ))}
      </ol>
    </Dialog>
  );
}
