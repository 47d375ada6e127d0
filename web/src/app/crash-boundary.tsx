import { Component, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

interface CrashBoundaryState {
  crashed: boolean;
}

/** A rendering bug shows a way forward instead of a blank page. */
export class CrashBoundary extends Component<{ children: ReactNode }, CrashBoundaryState> {
  override state: CrashBoundaryState = { crashed: false };

  static getDerivedStateFromError(): CrashBoundaryState {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('CTPO: the page crashed', error);
  }

  override render() {
    if (!this.state.crashed) return this.props.children;
    return (
      <main className="centered-message">
        <div className="card" role="alert">
          <p>
            <FormattedMessage id="app.crashed" />
          </p>
        </div>
      </main>
    );
  }
}
