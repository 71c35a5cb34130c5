import { useState } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { domainClaimRequestSchema } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { fieldErrorMessages } from '@/lib/errors';
import { useClaimDomain } from '../api/domains';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

type Input = z.input<typeof domainClaimRequestSchema>;
type Output = z.output<typeof domainClaimRequestSchema>;

/**
 * Claim a domain for the organization: read as the server reads it (contracts, domainField:
 * lower case, IDNA, no @ or trailing dot); the server's refusals (a public mail provider's
 * domain, one verified elsewhere) show above the buttons.
 */
export function AddDomainModal({
  organizationId,
  onClose,
  onAdded,
}: {
  organizationId: string;
  onClose: () => void;
  onAdded: (domain: string) => void;
}) {
  const { t } = useTranslation();
  const claim = useClaimDomain(organizationId);
  const [problems, setProblems] = useState<string[] | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Input, unknown, Output>({ resolver: zodResolver(domainClaimRequestSchema), defaultValues: { domain: '' } });

  const submit = handleSubmit((values) => {
    setProblems(null);
    claim.mutate(values, {
      onSuccess: (answer) => onAdded(answer.domain),
      onError: (error) => {
        const field = fieldErrorMessages(error, (key, options) => t(key, options ?? {})).domain;
        if (field) setError('domain', { message: field });
        else setProblems(errorLines(error));
      },
    });
  });

  const message = errors.domain?.message;
  return (
    <ModalFrame title={t('identity.domain_add_title')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={t('identity.domain_label')}
            description={t('identity.domain_description')}
            placeholder="dealer.example"
            required
            autoComplete="off"
            spellCheck={false}
            maxLength={300}
            data-autofocus
            {...register('domain')}
            error={message ? t(message) : undefined}
          />
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('identity.cancel')}
            </Button>
            <Button type="submit" loading={claim.isPending}>
              {t('identity.domain_add_submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
