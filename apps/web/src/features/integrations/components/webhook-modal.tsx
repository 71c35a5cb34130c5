import { useId, useState } from 'react';
import { Button, Checkbox, Group, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { webhookCreateSchema, webhookEventsField, webhookUrlField, type Webhook, type WebhookCreated } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { fieldErrorMessages } from '@/lib/errors';
import { useCreateWebhook, useUpdateWebhook } from '../api/webhooks';
import { isAllEvents, webhookEventGroups, type WebhookEventGroup } from '../lib/integrations';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { OnceShownModal } from './once-shown';

/** The events as the contract reads them: every event ("*") or the chosen ones (contracts webhooks.ts, webhookEventsField). */
const eventsOf = (v: { scope: 'all' | 'chosen'; events: string[] }) => (v.scope === 'all' ? ['*'] : v.events);

const formSchema = z
  .object({
    url: webhookUrlField,
    scope: z.enum(['all', 'chosen']),
    events: z.array(z.string()),
    description: z.string(),
  })
  .superRefine((values, ctx) => {
    const events = webhookEventsField.safeParse(eventsOf(values));
    if (!events.success) ctx.addIssue({ code: 'custom', path: ['events'], message: events.error.issues[0]?.message ?? 'required_field' });
    const description = webhookCreateSchema.shape.description.safeParse(values.description);
    if (!description.success)
      ctx.addIssue({ code: 'custom', path: ['description'], message: description.error.issues[0]?.message ?? 'validation_failed' });
  });
type Values = z.input<typeof formSchema>;
type Checked = z.output<typeof formSchema>;
const FIELDS: FieldPath<Values>[] = ['url', 'events', 'description'];

const GROUP_LABELS: Record<WebhookEventGroup, string> = {
  organization: 'integrations.events_group_organization',
  member: 'integrations.events_group_member',
  invitation: 'integrations.events_group_invitation',
};

/**
 * Add or edit a webhook of the organization: the URL, every event or the chosen ones of the
 * contract's list, a description. A new webhook's signing secret (whsec_…) is shown once after;
 * an edit keeps the secret. The server's refusals (a URL it may not call) show at their field.
 */
export function WebhookModal({
  organizationId,
  webhook,
  onClose,
  onSaved,
}: {
  organizationId: string;
  webhook?: Webhook;
  onClose: () => void;
  onSaved: (url: string) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateWebhook(organizationId);
  const update = useUpdateWebhook(organizationId);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Checked>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      url: webhook?.url ?? '',
      scope: webhook && !isAllEvents(webhook.events) ? 'chosen' : 'all',
      events: webhook && !isAllEvents(webhook.events) ? webhook.events : [],
      description: webhook?.description ?? '',
    },
  });
  const scope = useWatch({ control, name: 'scope' });

  const onError = (error: unknown) => {
    const fields = fieldErrorMessages(error, (key, options) => t(key, options ?? {}));
    let placed = false;
    for (const [wire, message] of Object.entries(fields)) {
      const field = wire.split('.')[0] as FieldPath<Values>;
      if (!FIELDS.includes(field)) continue;
      setError(field, { message });
      placed = true;
    }
    if (!placed || !(error instanceof ApiError) || error.status !== 400) setProblems(errorLines(error));
  };

  const submit = handleSubmit((values) => {
    setProblems(null);
    const body = { url: values.url, events: eventsOf(values), description: values.description.trim() || null };
    if (webhook) update.mutate({ id: webhook.id, ...body }, { onSuccess: () => onSaved(values.url), onError });
    else create.mutate(body, { onSuccess: setCreated, onError });
  });

  if (created)
    return (
      <OnceShownModal
        title={t('integrations.webhook_created_title')}
        intro={t('integrations.webhook_created_intro')}
        values={[{ label: t('integrations.signing_secret'), value: created.secret, testId: 'signing-secret', secret: true }]}
        onClose={onClose}
      />
    );

  const message = (key: string | undefined) => (key ? t(key) : undefined);
  return (
    <ModalFrame title={webhook ? t('integrations.webhook_edit_title') : t('integrations.webhook_add_title')} onClose={onClose} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('integrations.url')}
            description={t('integrations.url_description')}
            placeholder="https://erp.example/hooks/partner-portal"
            type="url"
            required
            spellCheck={false}
            autoComplete="off"
            maxLength={2000}
            data-autofocus
            {...register('url')}
            error={message(errors.url?.message)}
          />
          <Controller
            control={control}
            name="scope"
            render={({ field }) => (
              <Radio.Group label={t('integrations.events')} withAsterisk value={field.value} onChange={field.onChange}>
                <Stack gap={6} mt={6}>
                  <Radio value="all" label={t('integrations.events_all')} />
                  <Radio value="chosen" label={t('integrations.events_chosen')} />
                </Stack>
              </Radio.Group>
            )}
          />
          {scope === 'chosen' ? (
            <Controller
              control={control}
              name="events"
              render={({ field }) => (
                <Checkbox.Group
                  aria-label={t('integrations.events_chosen')}
                  value={field.value}
                  onChange={field.onChange}
                  error={message(errors.events?.message ?? errors.events?.root?.message)}
                >
                  <Group align="flex-start" gap="lg" mt={4}>
                    {webhookEventGroups().map(({ group, events }) => (
                      <EventGroup key={group} label={t(GROUP_LABELS[group])} events={events} />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            />
          ) : null}
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
            <Button type="submit" loading={create.isPending || update.isPending}>
              {webhook ? t('integrations.save') : t('integrations.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}

/** The events of one kind (organizations, members, invitations), named as the deliveries name them. */
function EventGroup({ label, events }: { label: string; events: readonly string[] }) {
  const labelId = useId();
  return (
    <Stack gap={6} role="group" aria-labelledby={labelId} style={{ minWidth: '12rem' }}>
      <Text size="sm" fw={600} id={labelId}>
        {label}
      </Text>
      {events.map((event) => (
        <Checkbox key={event} value={event} label={event} styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
      ))}
    </Stack>
  );
}
