import { notifications } from '@mantine/notifications';
import { i18n } from '@/lib/i18n';

/** Success and failure toasts (docs/product.md, "Errors"; top-right, 2000 ms, several at once), with a named close button. */
const closeButtonProps = () => ({ 'aria-label': i18n.t('org_close') });

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message, withBorder: true, closeButtonProps: closeButtonProps() });
}

export function notifyError(lines: string[]) {
  notifications.show({
    color: 'red',
    message: lines.join('\n'),
    withBorder: true,
    style: { whiteSpace: 'pre-line' },
    closeButtonProps: closeButtonProps(),
  });
}
