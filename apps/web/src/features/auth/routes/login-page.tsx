import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { PageLoader } from '@/components/page-loader';
import { Alert, Button, Divider, rem, Stack, Text, Title } from '@/components/plain';
import { TextLink } from '@/components/text-link';
import { useConfiguration } from '@/lib/config';
import { paths, safeReturnPath } from '@/lib/paths';
import { useSessionAnswer } from '@/lib/session-user';
import { useLoginContext } from '../api/get-context';
import { useLoginErrorMessage } from '../api/get-login-error';
import { EmailStep } from '../components/email-step';
import { NoAccount } from '../components/no-account';
import type { LoginStepProps } from '../components/login-step';
import type { SignInPause } from '../components/sign-in-paused';
import { usePasskeyAutofill } from '../hooks/use-passkey-autofill';
import { firstLoginStep } from '../lib/first-login-step';

/**
 * A later step of the login, loaded on demand, inside Mantine's provider: the page itself renders
 * without Mantine (components/plain.tsx), its later steps with it; the provider comes with the
 * first of them (docs/decisions/022-login-and-manage-bundles.md, third round).
 */
const stepWithMantine =
  <P extends object>(load: () => Promise<ComponentType<P>>) =>
  () =>
    Promise.all([load(), import('@/components/mantine')]).then(([Step, { withMantine }]) => ({ default: withMantine(Step) }));

// The password step loads once the visitor starts typing the address (or sends it), beside the
// e-mail step's request rather than before the form (docs/decisions/022-login-and-manage-bundles.md)
const loadPasswordStep = stepWithMantine(() => import('../components/password-step').then((m) => m.PasswordStep));
const PasswordStep = lazy(loadPasswordStep);
const preloadPasswordStep = () => void loadPasswordStep().catch(() => undefined);
// the steps after the password load when needed: the e-mail field comes first
// (docs/decisions/007-login-on-a-slow-connection.md)
const SecondFactorStep = lazy(stepWithMantine(() => import('../components/second-factor-step').then((m) => m.SecondFactorStep)));
const EnrolSecondFactor = lazy(stepWithMantine(() => import('../components/enrol-second-factor').then((m) => m.EnrolSecondFactor)));
// and so does the message of a paused sign-in, seldom seen
const SignInPaused = lazy(stepWithMantine(() => import('../components/sign-in-paused').then((m) => m.SignInPaused)));

/**
 * Two-step login (docs/product.md, "Screens" and "Flows and states"): the e-mail address first (it may log in through an external
 * identity provider), then the password. With a ReturnUrl the login completes an OpenID Connect
 * authorization of the named client application.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnUrl = params.get('ReturnUrl') ?? params.get('returnUrl');
  const returnPath = params.get('returnPath');
  const loginErrorId = params.get('loginError');

  // without the query client: it loads with the signed-in views (lib/answers.ts)
  const session = useSessionAnswer();
  const context = useLoginContext(returnUrl);
  const loginError = useLoginErrorMessage(loginErrorId);
  const config = useConfiguration();

  // a sign-in at an identity provider (a single sign-on connection) may continue here with the
  // portal's second step (?next_step=, its pending sign-in in a cookie)
  const [step, setStep] = useState<'email' | 'password' | 'second_factor' | 'enrol'>(() => firstLoginStep(params.get('next_step')));
  // after registering, the invitation page sends the new account's address along (navigation state)
  const registeredEmail = (useLocation().state as { registeredEmail?: unknown } | null)?.registeredEmail;
  const registered = typeof registeredEmail === 'string' ? registeredEmail : null;
  const [email, setEmail] = useState(registered ?? '');
  const [formError, setFormError] = useState<string | null>(null);
  const [pause, setPause] = useState<SignInPause | null>(null);
  const endPause = useCallback(() => setPause(null), []);
  // the address whose password was refused: "No account yet?" offers to ask for access for it
  const [refusedEmail, setRefusedEmail] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // the provider signed the visitor in, but their account here is not one it serves: the password step instead
  const [passwordLogin, setPasswordLogin] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const movedFocus = useRef(false);

  /** The session exists: load the user and go where the login leads. */
  const finishLogin = useCallback(
    async (result: LoginConsentResponse) => {
      // the query client comes now, with the session's rules, for the views the login leads to
      const { applyUserLanguage, reloadSessionUser } = await import('@/lib/session');
      const user = await reloadSessionUser().catch(() => null);
      await applyUserLanguage(user);
      if (returnUrl && result.valid_return_url) {
        setLeaving(true);
        await navigate(paths.loggedIn, { replace: true });
        window.location.assign(result.valid_return_url);
        return;
      }
      await navigate(safeReturnPath(returnPath) ?? paths.home, { replace: true });
    },
    [navigate, returnPath, returnUrl],
  );

  // a passkey signs in at the e-mail step: the browser offers it in the field's suggestions
  const signedOut = !session.isPending && !session.data;
  usePasskeyAutofill({ enabled: step === 'email' && signedOut, returnUrl, returnPath, onSignedIn: finishLogin, onError: setFormError });

  // focus follows the step: the e-mail field when going back (the password step takes it when it opens)
  useEffect(() => {
    if (movedFocus.current && step === 'email') emailRef.current?.focus();
  }, [step]);

  // signed in: on to the page, with a spinner in the card while that page's code loads (not an empty card)
  if (!returnUrl && !loginErrorId && session.data)
    return (
      <>
        <PageLoader minHeight={320} />
        <Navigate to={safeReturnPath(returnPath) ?? paths.home} replace />
      </>
    );
  // the form shows at once; a visitor who turns out to be signed in is sent on when the session answers
  if ((returnUrl && context.isPending) || leaving) return <PageLoader minHeight={320} />;

  const clientName = returnUrl ? context.data?.client?.client_name || context.data?.client?.client_id : null;
  const loginErrorText = loginError.data ?? null;
  const title = clientName ?? t('product_name');

  /** Sign in elsewhere: an external identity provider. */
  const leave = (url: string) => {
    setLeaving(true);
    window.location.assign(url);
  };

  // what both form steps share (components/login-step.ts)
  const flow: LoginStepProps = { email, returnUrl, returnPath, onFormError: setFormError, onExternal: leave };

  const goTo = (next: typeof step) => {
    movedFocus.current = true;
    setStep(next);
  };

  /** The pending sign-in ended (expired or cancelled): start again at the e-mail step. */
  const expired = () => {
    setFormError('second_step_expired');
    goTo('email');
  };

  const backToEmail = () => {
    setFormError(null);
    goTo('email');
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2" ref={headingRef}>
          {title}
        </Title>
        <Text size="sm" style={{ marginTop: rem(4), color: 'var(--mantine-color-dimmed)' }}>
          {clientName ? t('login_subtitle_client') : t('login_subtitle')}
        </Text>
      </div>

      {registered && step === 'email' && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          title={t('account_ready_title')}
          role="status"
          titleStyle={{ color: 'var(--mantine-color-dark-9)' }}
        >
          {t('account_ready_text')}
        </Alert>
      )}
      {loginErrorText && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} title={t('login_failed')} role="alert">
          {t(loginErrorText.key, loginErrorText.params)}
          {loginErrorText.key === 'sso_no_account' && step === 'email' && !passwordLogin ? (
            <div style={{ marginTop: rem(8) }}>
              <Button
                onClick={() => {
                  setPasswordLogin(true);
                  emailRef.current?.focus();
                }}
              >
                {t('sign_in_with_password_instead')}
              </Button>
            </div>
          ) : null}
        </Alert>
      )}
      {/* while it applies: the address it was for is still the one given */}
      {pause && pause.email.toLowerCase() === email.trim().toLowerCase() && (
        <Suspense fallback={null}>
          <SignInPaused pause={pause} onOver={endPause} />
        </Suspense>
      )}
      {formError && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {t(formError)}
        </Alert>
      )}

      {step === 'email' ? (
        <EmailStep
          {...flow}
          inputRef={emailRef}
          onEmailChange={(value) => {
            preloadPasswordStep();
            setEmail(value);
          }}
          onSubmitted={preloadPasswordStep}
          onNext={() => goTo('password')}
          passwordLogin={passwordLogin}
        />
      ) : step === 'second_factor' ? (
        <Suspense key="second-factor-step" fallback={<PageLoader />}>
          <SecondFactorStep onDone={(result) => void finishLogin(result)} onExpired={expired} />
        </Suspense>
      ) : step === 'enrol' ? (
        <Suspense key="enrol-step" fallback={<PageLoader />}>
          <EnrolSecondFactor
            onDone={(result) => void finishLogin({ error: null, external_login: null, valid_return_url: result.valid_return_url ?? null })}
            onExpired={expired}
          />
        </Suspense>
      ) : (
        <Suspense key="password-step" fallback={<PageLoader />}>
          <PasswordStep
            {...flow}
            onBack={backToEmail}
            onNextStep={setStep}
            onSignedIn={finishLogin}
            onPaused={setPause}
            onInvalidLogin={setRefusedEmail}
          />
        </Suspense>
      )}

      {/* the way to a new password and to an account belong to the e-mail and password steps, not to the second factor's */}
      {step === 'email' || step === 'password' ? (
        <>
          <TextLink to={paths.forgotPassword}>{t('forgot_your_password')}</TextLink>
          <Divider />
          <NoAccount
            salesContact={config.sales_contact_email}
            refusedEmail={refusedEmail && refusedEmail.toLowerCase() === email.trim().toLowerCase() ? refusedEmail : null}
          />
        </>
      ) : null}
    </Stack>
  );
}
