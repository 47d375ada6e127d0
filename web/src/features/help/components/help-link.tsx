import { useState } from 'react';
import { useIntl } from 'react-intl';
import { HelpDialog } from '@/features/help/components/help-dialog';

/** The link-style button that opens the instructions. */
export function HelpLink() {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--link" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {intl.formatMessage({ id: 'help.open' })}
      </button>
      {open && <HelpDialog onClose={() => setOpen(false)} />}
    </>
  );
}
