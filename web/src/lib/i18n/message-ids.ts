// Types every message id against the English catalogue, so a misspelt id fails the typecheck
// instead of showing its id to a user.
import type en from '@/locales/en.json';

export type MessageId = keyof typeof en;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- react-intl's documented extension point
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
