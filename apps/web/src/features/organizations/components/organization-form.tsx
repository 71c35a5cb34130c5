import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '@partner-portal/contracts';
import { appName } from '../lib/app-names';
import { ProblemSummary } from '@/components/modal-frame';
import { AllowedDomainsField, refusedDomains } from '@/features/organizations/components/allowed-domains-field';

export interface OrganizationFormValues {
  /** trimmed, never empty */
  name: string;
  clientIds: string[];
  /** false whenever the option is not offered */
  allowChildren: boolean;
  /** the allowed e-mail domains, when the form offers them (provider administrators editing) */
  allowedDomains?: string[] | undefined;
}

/**
 * The organization form of both 'create sub-organization' and 'edit organization' (docs/product.md,
 * "Screens" and "Validation"): the name, required and trimmed (the submit button is disabled while
 * it is empty); the apps on offer; and 'allow creation of sub-organizations' only when offered.
 */
export function OrganizationForm({
  initial,
  apps,
  offerChildren,
  offerDomains = false,
  notice,
  submitLabel,
  busy,
  problems,
  onSubmit,
  onCancel,
}: {
  initial: OrganizationFormValues;
  /** the apps that may be chosen */
  apps: Organization['apps'];
  offerChildren: boolean;
  /** show the allowed e-mail domains field (provider administrators) */
  offerDomains?: boolean;
  /** shown between the name and the apps */
  notice?: ReactNode;
  submitLabel: string;
  busy: boolean;
  problems: string[] | null;
  onSubmit: (values: OrganizationFormValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial.name);
  const [clientIds, setClientIds] = useState<string[]>(initial.clientIds);
  const [allowChildren, setAllowChildren] = useState(initial.allowChildren);
  const [allowedDomains, setAllowedDomains] = useState<string[]>(initial.allowedDomains ?? []);
  const trimmed = name.trim();
  // a refused domain is shown and named in the field; the form waits until it is corrected or removed
  const ready = trimmed !== '' && !(offerDomains && refusedDomains(allowedDomains).length > 0);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (ready)
          onSubmit({
            name: trimmed,
            clientIds,
            allowChildren: offerChildren && allowChildren,
            ...(offerDomains ? { allowedDomains } : {}),
          });
      }}
    >
      <Stack>
        <TextInput
          label={t('org_name')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          data-autofocus
        />
        {notice}
        <Checkbox.Group label={t('org_apps')} value={clientIds} onChange={setClientIds}>
          <Stack gap={6} mt={6}>
            {apps.map((app) => (
              <Checkbox key={app.client_id} value={app.client_id} label={appName(app, t)} />
            ))}
            {apps.length === 0 ? (
              <Text size="sm" c="gray.7">
                {t('org_apps_none')}
              </Text>
            ) : null}
          </Stack>
        </Checkbox.Group>
        {offerChildren ? (
          <Checkbox label={t('org_allow_children')} checked={allowChildren} onChange={(e) => setAllowChildren(e.currentTarget.checked)} />
        ) : null}
        {offerDomains ? <AllowedDomainsField value={allowedDomains} onChange={setAllowedDomains} /> : null}
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('org_cancel')}
          </Button>
          <Button type="submit" disabled={!ready} loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
