import { useState } from 'react';
import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@partner-portal/contracts';
import { useFactors } from '../api/factors';
import { AccountSection } from './account-section';
import { AuthenticatorApp } from './authenticator-app';
import { ConfirmIdentityModal, useIdentityGuard } from './confirm-identity';
import { Passkeys } from './passkeys';
import { NewRecoveryCodes, RecoveryCodes } from './recovery-codes';

/**
 * "Sign-in and security" of the profile (docs/second-factors.md): the authenticator app, the
 * recovery codes and the passkeys. Changes that need a password or code checked in the last five
 * minutes ask for it first, then go on.
 */
export function SignInSecurity({ user }: { user: UserInfo }) {
  const external = !!user.externalIdentityProvider;
  const factors = useFactors(!external);
  const { guarded, modal } = useIdentityGuard();
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const { t } = useTranslation();

  if (external) return null;
  const data = factors.data;
  return (
    <AccountSection id="sign-in-security-title" title={t('security_title')} intro={t('security_intro')}>
      {data?.required && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
          {t('security_required')}
        </Alert>
      )}
      {newCodes && <NewRecoveryCodes codes={newCodes} onDone={() => setNewCodes(null)} />}
      <AuthenticatorApp totp={data?.totp} guarded={guarded} />
      {data && data.recovery_codes_remaining > 0 && (
        <RecoveryCodes remaining={data.recovery_codes_remaining} guarded={guarded} onNewCodes={setNewCodes} />
      )}
      <Passkeys passkeys={data?.passkeys} guarded={guarded} onNewCodes={setNewCodes} />
      <ConfirmIdentityModal {...modal} />
    </AccountSection>
  );
}
