import { useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  emailSchema,
  emptyRights,
  USER_LANGUAGES,
  userLanguageFor,
  type Invitation,
  type Organization,
  type Delegator,
  type Rights,
  type RightsContext,
  isDomainAllowed,
} from '@partner-portal/contracts';
import { useInviteUser } from '../api/invite-user';
import { LANGUAGE_NAMES } from '@/components/language-names';
import { errorLines } from '@/components/notify';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { RightsEditor } from './rights-editor';

const formSchema = z.object({ email_address: emailSchema, language_code: z.enum(USER_LANGUAGES) });
type FormValues = z.input<typeof formSchema>;

/**
 * Invite user (docs/product.md, "Screens" and "Validation"): e-mail required; with allowed domains, the part after @ must be one
 * of them (checked here and by the server); the language defaults to the inviter's; rights are
 * optional and edited with the same editor as 'edit user rights'.
 */
export function InviteUserModal({
  organization,
  inviterLanguage,
  rightsContext,
  actor,
  onClose,
  onInvited,
}: {
  organization: Organization;
  inviterLanguage: string;
  rightsContext: RightsContext;
  /** who invites: the rights editor offers only the rights they hold */
  actor?: Delegator | undefined;
  onClose: () => void;
  onInvited: (invitation: Invitation) => void;
}) {
  const { t } = useTranslation();
  const invite = useInviteUser();
  const [problems, setProblems] = useState<string[] | null>(null);
  const [withRights, setWithRights] = useState(false);
  const [rights, setRights] = useState<Rights>(emptyRights);
  const domains = organization.allowed_email_domains.map((d) => `@${d.replace(/^@/, '')}`);
  const domainMessage = `${t('org_not_allowed_domain')}: ${domains.join(', ')}`;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { email_address: '', language_code: userLanguageFor(inviterLanguage) },
  });

  const submit = handleSubmit((values) => {
    const email = values.email_address.trim();
    if (!isDomainAllowed(email, organization.allowed_email_domains)) {
      setError('email_address', { message: domainMessage });
      return;
    }
    setProblems(null);
    invite.mutate(
      { organizationId: organization.id, email_address: email, language_code: values.language_code, ...(withRights ? { rights } : {}) },
      { onSuccess: ({ invitation }) => onInvited(invitation), onError: (error) => setProblems(errorLines(withRightsInWords(error, t))) },
    );
  });

  const emailError = errors.email_address?.message;
  return (
    <ModalFrame title={t('org_invite_title', { name: organization.name })} onClose={onClose} size={withRights ? 'xl' : 'md'}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={t('org_email')}
            type="email"
            required
            autoComplete="off"
            maxLength={100}
            data-autofocus
            {...register('email_address')}
            error={emailError ? (emailError === domainMessage ? emailError : t(emailError)) : undefined}
          />
          {domains.length > 0 && emailError !== domainMessage ? (
            <Text size="sm" c="gray.7">
              {t('adm_domains_invite_explained', { domains: domains.join(', ') })}
            </Text>
          ) : null}
          <NativeSelect
            label={t('org_language')}
            {...register('language_code')}
            data={USER_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
          />
          <Checkbox label={t('org_invite_rights')} checked={withRights} onChange={(e) => setWithRights(e.currentTarget.checked)} />
          {withRights ? (
            <RightsEditor
              rights={rights}
              context={rightsContext}
              delegation={actor ? { actor, memberRights: emptyRights() } : undefined}
              onChange={setRights}
            />
          ) : null}
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('org_cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending}>
              {t('org_send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
