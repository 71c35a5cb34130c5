import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/lib/paths';
import { MessageWithLink } from '../components/message-with-link';

/** After a reset request: what to do next, and what to do when no e-mail arrives. */
export function ForgotPasswordConfirmationPage() {
  const { t } = useTranslation();
  return (
    <MessageWithLink
      title={t('forgot_password_confirmation_title')}
      alert={{ color: 'green', Icon: IconMailCheck, text: t('forgot_password_confirmation_text') }}
      next={{ text: t('forgot_password_not_received'), to: paths.login, link: t('back_to_login') }}
    />
  );
}
