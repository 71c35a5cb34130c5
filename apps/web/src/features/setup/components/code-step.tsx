import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SetupLinkInfo } from '@partner-portal/contracts';
import { errorText } from '@/components/notify';
import { sendSetupCode, useOpenSetupSession } from '../api/setup';

/** The first step: a one-time code to the link's address, then the code, which opens the setup session. */
export function CodeStep({ token, info }: { token: string; info: SetupLinkInfo }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const open = useOpenSetupSession(token);

  const send = async () => {
    setFailure(null);
    setSending(true);
    try {
      await sendSetupCode(token);
      setSent(true);
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setSending(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    open.mutate(code.trim(), { onError: (error) => setFailure(errorText(error)) });
  };

  return (
    <Stack gap="sm" data-testid="setup-code-step">
      <Text>{t('setup.code_intro', { email: info.email })}</Text>
      <Group>
        <Button
          variant={sent ? 'default' : 'filled'}
          leftSection={<IconMail size={16} aria-hidden />}
          loading={sending}
          onClick={() => void send()}
        >
          {sent ? t('setup.code_send_again') : t('setup.code_send')}
        </Button>
      </Group>
      {sent ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('setup.code_sent', { email: info.email })}</Text>
            <TextInput
              label={t('setup.code_label')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              required
              maxLength={10}
            />
            <Group>
              <Button type="submit" loading={open.isPending}>
                {t('setup.code_continue')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}
