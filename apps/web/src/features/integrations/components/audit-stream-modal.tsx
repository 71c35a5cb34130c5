import { useState } from 'react';
import { Button, Group, PasswordInput, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  AUDIT_STREAM_KINDS,
  AUDIT_STREAM_TOKEN_KINDS,
  auditStreamCreateSchema,
  webhookUrlField,
  type AuditStream,
  type AuditStreamCreated,
} from '@partner-portal/contracts';
import { errorLines, notifySuccess } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { fieldErrorMessages } from '@/lib/errors';
import { useCreateAuditStream, useReplayAuditStream } from '../api/audit-streams';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { STREAM_KIND_LABELS } from './audit-streams-panel';
import { OnceShownModal } from './once-shown';

// the form's fields as typed: a token only where the kind takes one (a token typed for Splunk stays when HTTPS is chosen after)
const formSchema = z
  .object({
    kind: z.enum(AUDIT_STREAM_KINDS, { message: 'invalid_audit_stream_kind' }),
    url: webhookUrlField,
    token: z.string(),
    description: z.string().max(500, { message: 'validation_failed' }),
  })
  .superRefine((values, ctx) => {
    if (!AUDIT_STREAM_TOKEN_KINDS.includes(values.kind)) return;
    const token = auditStreamCreateSchema.safeParse({ kind: values.kind, url: 'https://x.example/', token: values.token.trim() || null });
    if (!token.success) ctx.addIssue({ code: 'custom', path: ['token'], message: token.error.issues[0]?.message ?? 'required_field' });
  });
type Values = z.input<typeof formSchema>;
type Checked = z.output<typeof formSchema>;
const FIELDS: FieldPath<Values>[] = ['kind', 'url', 'token', 'description'];

const URL_PLACEHOLDERS: Record<AuditStream['kind'], string> = {
  https: 'https://siem.example/audit',
  splunk_hec: 'https://splunk.example:8088/services/collector/event',
  datadog: 'https://http-intake.logs.datadoghq.eu/api/v2/logs',
};

/** Place the server's field errors at their fields; anything else (or nothing placed) in the summary. */
function useServerErrors<V extends Record<string, unknown>>(
  fields: FieldPath<V>[],
  setError: (field: FieldPath<V>, error: { message: string }) => void,
) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<string[] | null>(null);
  const onError = (error: unknown) => {
    const messages = fieldErrorMessages(error, (key, options) => t(key, options ?? {}));
    let placed = false;
    for (const [wire, message] of Object.entries(messages)) {
      const field = wire.split('.')[0] as FieldPath<V>;
      if (!fields.includes(field)) continue;
      setError(field, { message });
      placed = true;
    }
    if (!placed || !(error instanceof ApiError) || error.status !== 400) setProblems(errorLines(error));
  };
  return { problems, setProblems, onError };
}

/**
 * Add an audit stream of the organization: its kind (HTTPS signed as Standard Webhooks, Splunk
 * HEC, Datadog), the URL, the token Splunk and Datadog take, a description. An https stream's
 * signing secret (whsec_…) is shown once after.
 */
export function AuditStreamModal({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateAuditStream(organizationId);
  const [created, setCreated] = useState<AuditStreamCreated | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Checked>({
    resolver: zodResolver(formSchema),
    defaultValues: { kind: 'https', url: '', token: '', description: '' },
  });
  const { problems, setProblems, onError } = useServerErrors<Values>(FIELDS, setError);
  const kind = useWatch({ control, name: 'kind' });
  const needsToken = AUDIT_STREAM_TOKEN_KINDS.includes(kind);

  const submit = handleSubmit((values) => {
    setProblems(null);
    const body = {
      kind: values.kind,
      url: values.url,
      ...(AUDIT_STREAM_TOKEN_KINDS.includes(values.kind) ? { token: values.token.trim() } : {}),
      description: values.description.trim() || null,
    };
    create.mutate(body, {
      onSuccess: (answer) => {
        if (answer.secret) setCreated(answer);
        else {
          notifySuccess(t('integrations.audit_stream_created', { url: values.url }));
          onClose();
        }
      },
      onError,
    });
  });

  if (created?.secret)
    return (
      <OnceShownModal
        title={t('integrations.audit_stream_created_title')}
        intro={t('integrations.audit_stream_created_intro')}
        values={[{ label: t('integrations.signing_secret'), value: created.secret, testId: 'signing-secret', secret: true }]}
        onClose={onClose}
      />
    );

  const message = (key: string | undefined) => (key ? t(key) : undefined);
  return (
    <ModalFrame title={t('integrations.audit_stream_add_title')} onClose={onClose} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <Radio.Group
                label={t('integrations.audit_stream_kind')}
                withAsterisk
                value={field.value}
                onChange={field.onChange}
                error={message(errors.kind?.message)}
              >
                <Stack gap={6} mt={6}>
                  {AUDIT_STREAM_KINDS.map((k) => (
                    <Radio key={k} value={k} label={t(STREAM_KIND_LABELS[k])} />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          />
          <TextInput
            label={t('integrations.url')}
            description={t(`integrations.audit_stream_url_description_${kind}`)}
            placeholder={URL_PLACEHOLDERS[kind]}
            type="url"
            required
            spellCheck={false}
            autoComplete="off"
            maxLength={2000}
            data-autofocus
            {...register('url')}
            error={message(errors.url?.message)}
          />
          {needsToken ? (
            <PasswordInput
              label={t(kind === 'datadog' ? 'integrations.audit_stream_api_key' : 'integrations.audit_stream_token')}
              required
              autoComplete="off"
              maxLength={2000}
              {...register('token')}
              error={message(errors.token?.message)}
            />
          ) : (
            <Text size="sm" c="gray.7">
              {t('integrations.audit_stream_https_note')}
            </Text>
          )}
          <Textarea
            label={t('integrations.description_optional')}
            autosize
            minRows={2}
            maxRows={5}
            maxLength={500}
            {...register('description')}
            error={message(errors.description?.message)}
          />
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('integrations.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('integrations.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}

const replaySchema = z.object({
  // a local date and time as <input type="datetime-local"> gives it
  from: z.string().refine((value) => value !== '' && !Number.isNaN(new Date(value).getTime()), { message: 'invalid_date_time' }),
});
type ReplayValues = z.input<typeof replaySchema>;

/** Send a stream's entries again from a date and time (the browser's time zone), after what it has not sent yet. */
export function ReplayModal({ organizationId, stream, onClose }: { organizationId: string; stream: AuditStream; onClose: () => void }) {
  const { t } = useTranslation();
  const replay = useReplayAuditStream(organizationId);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ReplayValues>({ resolver: zodResolver(replaySchema), defaultValues: { from: '' } });
  const { problems, setProblems, onError } = useServerErrors<ReplayValues>(['from'], setError);

  const submit = handleSubmit((values) => {
    setProblems(null);
    replay.mutate(
      { id: stream.id, from: new Date(values.from).toISOString() },
      {
        onSuccess: () => {
          notifySuccess(t('integrations.audit_stream_replayed', { url: stream.url }));
          onClose();
        },
        onError,
      },
    );
  });

  return (
    <ModalFrame title={t('integrations.audit_stream_replay_title')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('integrations.audit_stream_replay_intro', { url: stream.url })}</Text>
          <TextInput
            label={t('integrations.audit_stream_replay_from')}
            type="datetime-local"
            step={1}
            required
            data-autofocus
            {...register('from')}
            error={errors.from?.message ? t(errors.from.message) : undefined}
          />
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('integrations.cancel')}
            </Button>
            <Button type="submit" loading={replay.isPending}>
              {t('integrations.audit_stream_replay')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
