import { notifications } from '@mantine/notifications';
import { describeError, errorLines as linesOf, errorMessage } from '@/lib/errors';
import { i18n } from '@/lib/i18n';

/**
 * Toasts (docs/product.md, "Errors" and "Limits and constants"): top-right, 2000 ms, paused on hover, several at once (configured on the
 * <Notifications> of the app). Errors are red; 429 says 'too many requests, try again later'.
 */
const known = (key: string) => i18n.exists(key);

const closeButtonProps = () => ({ 'aria-label': i18n.t('close') });

export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'green', withBorder: true, closeButtonProps: closeButtonProps() });
}

export interface NotifyErrorOptions {
  /** docs/product.md, "Errors": 429 is silently ignored on change password and forgot password */
  ignoreTooManyRequests?: boolean;
  title?: string;
}

export function notifyError(err: unknown, options: NotifyErrorOptions = {}): void {
  const view = describeError(err, known);
  if (view.kind === 'too_many_requests' && options.ignoreTooManyRequests) return;
  notifications.show({
    title: options.title,
    message: errorMessage(err, (key, o) => i18n.t(key, o), known),
    color: 'red',
    withBorder: true,
    closeButtonProps: closeButtonProps(),
    style: { whiteSpace: 'pre-line' },
  });
}

/** The translated lines of a failure (for the summary in a form or modal). */
export function errorLines(err: unknown): string[] {
  return linesOf(err, (key, o) => i18n.t(key, o), known);
}

/** The translated one-line text of a failure (for inline alerts). */
export function errorText(err: unknown): string {
  return errorMessage(err, (key, o) => i18n.t(key, o), known);
}
