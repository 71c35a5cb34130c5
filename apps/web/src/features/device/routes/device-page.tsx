import { use, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Code, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconDeviceTv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  DEVICE_RESULTS,
  USER_CODE_MAX_LENGTH,
  type DeviceDecision,
  type DeviceRequest,
  type DeviceResult,
} from '@partner-portal/contracts';
import { errorText } from '@/components/notify';
import { ApiError, retryAfterMs } from '@/lib/api';
import { decideDevice, lookUpDevice } from '../api/device';
import { deviceLocales } from '../lib/locales';

function resultOf(value: string | null): DeviceResult | null {
  return (DEVICE_RESULTS as readonly string[]).includes(value ?? '') ? (value as DeviceResult) : null;
}

/**
 * /device (docs/api.md, "Devices and modern clients"): the verification page of device sign-in
 * (RFC 8628), for the signed-in person (the route needs a sign-in). It takes the code the device
 * shows (filled in from ?user_code=), names the application that asks, and hands the person's
 * Allow or Deny to the provider, which sends the browser back here with ?result=.
 */
export function DevicePage() {
  use(deviceLocales());
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const result = resultOf(params.get('result'));
  const [code, setCode] = useState(() => params.get('user_code')?.slice(0, USER_CODE_MAX_LENGTH) ?? '');
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'lookup' | DeviceDecision | null>(null);

  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 429) {
      const wait = retryAfterMs(error.retryAfter);
      setFailure(
        wait === null
          ? t('too_many_requests')
          : `${t('too_many_requests')}. ${t('device_page_try_again_in', { seconds: Math.ceil(wait / 1000) })}`,
      );
    } else setFailure(errorText(error));
  };

  const lookUp = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setBusy('lookup');
    try {
      setRequest(await lookUpDevice(code));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const decide = async (decision: DeviceDecision) => {
    if (!request) return;
    setFailure(null);
    setBusy(decision);
    try {
      const { continue_url } = await decideDevice({ user_code: request.user_code, decision });
      // the provider's page posts the decision and comes back here with ?result=
      window.location.assign(continue_url);
    } catch (error) {
      fail(error);
      setBusy(null);
    }
  };

  const startAgain = () => {
    setRequest(null);
    setFailure(null);
    setCode('');
    setParams({}, { replace: true });
  };

  if (result) {
    const good = result === 'allowed';
    const title = good ? 'device_page_allowed_title' : result === 'denied' ? 'device_page_denied_title' : 'device_page_problem_title';
    const text =
      result === 'allowed'
        ? t('device_page_allowed_text')
        : result === 'denied'
          ? t('device_page_denied_text')
          : result === 'unknown'
            ? t('device_code_unknown')
            : result === 'used'
              ? t('device_code_used')
              : t('device_page_failed_text');
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {t(title)}
        </Title>
        <Alert
          color={good ? 'green' : result === 'denied' ? 'gray' : 'red'}
          variant="light"
          icon={good ? <IconCircleCheck aria-hidden /> : <IconAlertCircle aria-hidden />}
          role={good ? 'status' : 'alert'}
        >
          {text}
        </Alert>
        {good ? null : (
          <Button variant="default" onClick={startAgain}>
            {t('device_page_other_code')}
          </Button>
        )}
      </Stack>
    );
  }

  const failureAlert = failure ? (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
      {failure}
    </Alert>
  ) : null;

  if (request) {
    const client = request.client.client_name;
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('device_page_confirm_title', { client })}
        </Title>
        <Group gap="sm" wrap="nowrap" align="center">
          {request.client.logo_uri ? (
            <Image src={request.client.logo_uri} alt={t('device_page_logo', { client })} w={48} h={48} fit="contain" />
          ) : (
            <IconDeviceTv aria-hidden size={40} />
          )}
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {client}
            </Text>
            {request.client.client_uri ? (
              <Anchor
                href={request.client.client_uri}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                style={{ overflowWrap: 'anywhere' }}
              >
                {t('device_page_website', { client })}
              </Anchor>
            ) : null}
          </Stack>
        </Group>
        <Text size="sm">{t('device_page_confirm_text', { client })}</Text>
        <Code block fz="xl" ta="center" data-testid="device-user-code">
          {request.user_code}
        </Code>
        {failureAlert}
        <Group grow>
          <Button
            variant="default"
            onClick={() => void decide('deny')}
            loading={busy === 'deny'}
            disabled={busy !== null && busy !== 'deny'}
          >
            {t('device_page_deny')}
          </Button>
          <Button onClick={() => void decide('allow')} loading={busy === 'allow'} disabled={busy !== null && busy !== 'allow'}>
            {t('device_page_allow')}
          </Button>
        </Group>
        <Anchor component="button" type="button" size="sm" onClick={startAgain}>
          {t('device_page_other_code')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('device_page_title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('device_page_intro')}
      </Text>
      {failureAlert}
      <form onSubmit={(e) => void lookUp(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('device_page_code')}
            required
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            maxLength={USER_CODE_MAX_LENGTH}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            styles={{ input: { textTransform: 'uppercase', letterSpacing: '0.15em' } }}
          />
          <Button type="submit" loading={busy === 'lookup'} fullWidth>
            {t('device_page_continue')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
