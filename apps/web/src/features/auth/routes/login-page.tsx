import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Box, Button, Checkbox, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { PageLoader } from '@/components/page-loader';
import { notifyError } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { configurationQuery, DEFAULT_CONFIGURATION } from '@/lib/config';
import { paths, safeReturnPath } from '@/lib/paths';
import { applyUserLanguage, reloadSessionUser, useSessionUser } from '@/lib/session';
import { contextQuery } from '../api/get-context';
import { emailLogin } from '../api/email-login';
import { loginErrorQuery } from '../api/get-login-error';
import { loginErrorMessageKey } from '../lib/login-error';

// the steps after the password, and passkeys, load when needed: the e-mail field comes first
// (docs/decisions/007-login-on-a-slow-connection.md)
const SecondFactorStep = lazy(() => import('../components/second-factor-step').then((m) => ({ default: m.SecondFactorStep })));
const EnrolSecondFactor = lazy(() => import('../components/enrol-second-factor').then((m) => ({ default: m.EnrolSecondFactor })));
const factors = () => import('@/lib/factors');
import { login } from '../api/login';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

  const session = useSessionUser();
  const context = useQuery(contextQuery(returnUrl));
  const loginError = useQuery(loginErrorQuery(loginErrorId));
  const { data: config = DEFAULT_CONFIGURATION } = useQuery(configurationQuery);

  const [step, setStep] = useState<'email' | 'password' | 'second_factor' | 'enrol'>('email');
  // after registering, the invitation page sends the new account's address along (navigation state)
  const registeredEmail = (useLocation().state as { registeredEmail?: unknown } | null)?.registeredEmail;
  const registered = typeof registeredEmail === 'string' ? registeredEmail : null;
  const [email, setEmail] = useState(registered ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const movedFocus = useRef(false);

  /** The session exists: load the user and go where the login leads. */
  const finishLogin = useCallback(
    async (result: LoginConsentResponse) => {
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
  useEffect(() => {
    if (step !== 'email' || !signedOut) return;
    let active = true;
    void factors().then(async ({ passkeyAutofillSupported, signInWithPasskey, isPasskeyCancelled }) => {
      if (!active || !(await passkeyAutofillSupported()) || !active) return;
      try {
        const result = await signInWithPasskey(true, { return_url: returnUrl, return_path: returnPath });
        if (active) await finishLogin(result);
      } catch (err) {
        if (active && !isPasskeyCancelled(err))
          setFormError(t(err instanceof ApiError && err.key === 'passkey_not_verified' ? 'passkey_not_verified' : 'error_try_again'));
      }
    });
    return () => {
      active = false;
      void factors().then(({ cancelPasskeyRequest }) => cancelPasskeyRequest());
    };
  }, [step, signedOut, returnUrl, returnPath, finishLogin, t]);

  // focus follows the step: the password field when it opens, the e-mail field when going back
  useEffect(() => {
    if (!movedFocus.current) return;
    if (step === 'password') passwordRef.current?.focus();
    else emailRef.current?.focus();
  }, [step]);

  if (!returnUrl && !loginErrorId && session.data) return <Navigate to={safeReturnPath(returnPath) ?? paths.home} replace />;
  // the form shows at once; a visitor who turns out to be signed in is sent on when the session answers
  if ((returnUrl && context.isPending) || leaving) return <PageLoader minHeight={320} />;

  const clientName = returnUrl ? context.data?.client?.client_name || context.data?.client?.client_id : null;
  const title = clientName ?? t('product_name');

  const submitEmail = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const value = email.trim();
    if (!value) return setEmailError(t('fill_all_required_fields'));
    if (!EMAIL_PATTERN.test(value) || value.length > 100) return setEmailError(t('invalid_email_address'));
    setEmailError(null);
    setSubmitting(true);
    try {
      const result = await emailLogin({ email: value, return_url: returnUrl, return_path: returnPath });
      if (result.external_login) {
        setLeaving(true);
        window.location.assign(result.external_login);
        return;
      }
      movedFocus.current = true;
      setStep('password');
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) notifyError(err);
      else if (err instanceof ApiError && err.status === 400) setEmailError(t('invalid_email_address'));
      else setFormError(t('error_try_again'));
    } finally {
      setSubmitting(false);
    }
  };

  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!email.trim() || !password) return setFormError(t('fill_all_required_fields'));
    setSubmitting(true);
    try {
      const result = await login({ email: email.trim(), password, remember, return_url: returnUrl, return_path: returnPath });
      if (result.error) {
        setFormError(t('invalid_login'));
        return;
      }
      if (result.external_login) {
        setLeaving(true);
        window.location.assign(result.external_login);
        return;
      }
      if (result.next_step) {
        setPassword('');
        setStep(result.next_step === 'second_factor' ? 'second_factor' : 'enrol');
        return;
      }
      await finishLogin(result);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) notifyError(err);
      else if (err instanceof ApiError && err.key === 'interaction_expired') setFormError(t('interaction_expired'));
      else if (err instanceof ApiError && err.status >= 400 && err.status < 500) setFormError(t('invalid_login'));
      else setFormError(t('error_try_again'));
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      setSubmitting(false);
    }
  };

  /** The pending sign-in ended (expired or cancelled): start again at the e-mail step. */
  const expired = () => {
    setFormError(t('second_step_expired'));
    movedFocus.current = true;
    setStep('email');
  };

  const backToEmail = () => {
    setPassword('');
    setFormError(null);
    movedFocus.current = true;
    setStep('email');
  };

  return (
    <Stack gap="md">
      <Box>
        <Title order={1} size="h2" ref={headingRef}>
          {title}
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          {clientName ? t('login_subtitle_client') : t('login_subtitle')}
        </Text>
      </Box>

      {registered && step === 'email' && (
        <Alert
          color="green"
          variant="light"
          icon={<IconCircleCheck aria-hidden />}
          title={t('account_ready_title')}
          role="status"
          styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
        >
          {t('account_ready_text')}
        </Alert>
      )}
      {loginError.data && (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} title={t('login_failed')} role="alert">
          {t(loginErrorMessageKey(loginError.data.error))}
        </Alert>
      )}
      {formError && (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
          {formError}
        </Alert>
      )}

      {step === 'email' ? (
        <form key="email-step" onSubmit={submitEmail} noValidate>
          <Stack gap="md">
            <TextInput
              ref={emailRef}
              label={t('email_address')}
              type="email"
              name="email"
              autoComplete="username webauthn"
              inputMode="email"
              required
              autoFocus
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setEmailError(null);
              }}
              error={emailError}
              maxLength={100}
            />
            <Button type="submit" loading={submitting} fullWidth>
              {t('next')}
            </Button>
          </Stack>
        </form>
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
        <form key="password-step" onSubmit={submitPassword} noValidate>
          <Stack gap="md">
            <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
            <Button
              variant="default"
              onClick={backToEmail}
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              justify="flex-start"
              aria-label={t('change_email_address', { email: email.trim() })}
              styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
            >
              {email.trim()}
            </Button>
            <PasswordInput
              ref={passwordRef}
              label={t('password')}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              maxLength={100}
            />
            <Checkbox label={t('remember_me')} checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
            <Button type="submit" loading={submitting} fullWidth>
              {t('login')}
            </Button>
          </Stack>
        </form>
      )}

      <Anchor component={Link} to={paths.forgotPassword} size="sm">
        {t('forgot_your_password')}
      </Anchor>
      <Divider />
      <Box>
        <Text size="sm" fw={600}>
          {t('no_account_title')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('no_account_help')}{' '}
          <Anchor href={`mailto:${config.sales_contact_email}`} size="sm">
            {config.sales_contact_email}
          </Anchor>
        </Text>
      </Box>
    </Stack>
  );
}
