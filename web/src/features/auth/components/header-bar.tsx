import { useIntl } from 'react-intl';
import { Logo } from '@/components/logo/logo';
import './header-bar.css';

interface HeaderBarProps {
  email: string;
  onSignOut: () => void;
}

/** The signed-in user's bar: who they are and the way out. */
export function HeaderBar({ email, onSignOut }: HeaderBarProps) {
  const intl = useIntl();
  return (
    <header className="header-bar">
      <div className="header-bar__inner">
        <Logo size={30} />
        <p className="header-bar__welcome">{intl.formatMessage({ id: 'auth.welcome' }, { email })}</p>
        <button type="button" className="button button--secondary" onClick={onSignOut}>
          {intl.formatMessage({ id: 'auth.signOut' })}
        </button>
      </div>
    </header>
  );
}
