import { Suspense, use, useEffect } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/lib/session';
import { notifySuccess } from '@/components/notify';
import { interfaceLanguageFor } from '@partner-portal/contracts';
import { changeLanguage } from '@/lib/i18n';
import { visitorChoseLanguage } from '@/components/language-picker';
import { useInvitation } from '../api/get-invitation';
import { invitationLocales } from '../lib/locales';
import { externalLoginUrl } from '../lib/registration';
import { InvitationLoading, LoggedInVisitor, NotPendingInvitation, UnknownInvitation } from './invitation-views';
import { RegistrationForm } from './registration-form';

/**
 * /invitation/{id}?code= and /invitation-external-identity/{id}?code= (docs/product.md, "Screens" and "Flows and states"): the form only
 * for a pending invitation and a visitor who is not logged in; otherwise unknown invitation, log
 * out first, or the invitation's state. Each page sends an invitation of the other kind to the
 * other page with the same query.
 *
 * While the invitation and the session load, the form is there already, without the invitation's
 * parts (address, organization): it is what the page is pre-rendered as
 * (docs/decisions/021-pre-rendered-public-pages.md), typeable before any script, and the same
 * form, what was typed and all, once the invitation turns out pending.
 */
export function InvitationPage({ external }: { external: boolean }) {
  return (
    <Suspense fallback={<InvitationLoading />}>
      <Invitation external={external} />
    </Suspense>
  );
}

function Invitation({ external }: { external: boolean }) {
  use(invitationLocales());
  const { t } = useTranslation();
  const { invitationId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code') ?? '';
  const navigate = useNavigate();
  const invitation = useInvitation(invitationId, code);
  const session = useSessionUser();
  // the page speaks the invitation's language (the one its e-mail was written in), unless the
  // visitor picked another one here
  const invitationLanguage = invitation.data?.language_code;
  useEffect(() => {
    if (invitationLanguage && !session.data && !visitorChoseLanguage()) void changeLanguage(interfaceLanguageFor(invitationLanguage));
  }, [invitationLanguage, session.data]);

  const registered = () => {
    if (external) {
      window.location.assign(externalLoginUrl(invitationId));
      return;
    }
    notifySuccess(t('inv_registered'));
    // the login page also says so where it stays, with the new account's address filled in
    void navigate('/login', { state: { registeredEmail: invitation.data?.email_address } });
  };
  // the same element as the pending invitation's form below: React keeps it, and what was typed
  if (invitation.isPending || session.isPending)
    return <RegistrationForm invitation={null} code={code} external={external} onRegistered={registered} />;
  if (invitation.isError) return <UnknownInvitation />;
  const data = invitation.data;
  if (data.is_external_identity_provider !== external) {
    const target = data.is_external_identity_provider ? '/invitation-external-identity/' : '/invitation/';
    return <Navigate to={`${target}${encodeURIComponent(invitationId)}?${searchParams.toString()}`} replace />;
  }
  if (session.data) return <LoggedInVisitor />;
  if (data.invitation_state !== 'PENDING') return <NotPendingInvitation invitation={data} />;
  return <RegistrationForm invitation={data} code={code} external={external} onRegistered={registered} />;
}
