import { useState } from 'react';
import { Alert, Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Rights, RightsContext, SectionKey } from '@partner-portal/contracts';
import { editorState, isFullPermission, toggleGlobal, toggleRight, type Delegation } from '../lib/rights-editor';

/**
 * The rights editor of docs/product.md, "Roles and rights", drawn from the shared rules: a section per app, global full
 * permission (outside the provider's organization) that checks and disables every app box, per-app
 * full permission, Access locked while a sub-right is ticked, provider-only and developer boxes.
 * Unticking a full permission gives back the boxes as they were just before its tick. With a
 * delegation, the boxes the actor may not change are disabled with the reason.
 */
export function RightsEditor({
  rights,
  context,
  delegation,
  onChange,
}: {
  rights: Rights;
  context: RightsContext;
  delegation?: Delegation | undefined;
  onChange: (rights: Rights) => void;
}) {
  const { t } = useTranslation();
  // the rights just before a full permission was ticked in this editor, to give back on untick
  const [beforeGlobal, setBeforeGlobal] = useState<Rights | null>(null);
  const [beforeFull, setBeforeFull] = useState<Partial<Record<SectionKey, Rights>>>({});
  const state = editorState(rights, context, delegation);

  const onGlobal = (checked: boolean) => {
    onChange(toggleGlobal(rights, checked, context, beforeGlobal));
    setBeforeGlobal(checked ? rights : null);
  };
  const onBox = (section: SectionKey, name: string, checked: boolean) => {
    const definition = state.sections.find((s) => s.section.section === section)?.section;
    const full = definition ? isFullPermission(definition, name, context) : false;
    onChange(toggleRight(rights, section, name, checked, context, full ? (beforeFull[section] ?? null) : null));
    if (full) setBeforeFull({ ...beforeFull, [section]: checked ? rights : undefined });
  };

  return (
    <Stack gap="sm">
      {state.memberLock ? (
        <Alert color="yellow" variant="light" role="status" data-testid="rights-member-lock">
          {t(state.memberLock)}
        </Alert>
      ) : null}
      {state.globalOffered ? (
        <Checkbox
          label={t('rights.global_full_permission')}
          checked={state.global}
          disabled={state.globalLock !== null}
          description={state.globalLock === 'rights_locked_not_held' ? t(state.globalLock) : undefined}
          onChange={(e) => onGlobal(e.currentTarget.checked)}
          fw={600}
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {state.sections.map(({ section, boxes }) => (
          <Fieldset key={section.section} legend={t(section.titleKey)} variant="filled" p="sm">
            <Stack gap={6}>
              {boxes.map(({ right, checked, disabled, lock }) => (
                <Checkbox
                  key={right.name}
                  id={`right-${section.section}-${right.name}`}
                  name={`${section.section}.${right.name}`}
                  label={t(`rights.${section.section}.${right.name}`, { defaultValue: t(`rights.common.${right.name}`) })}
                  description={lock === 'rights_locked_not_held' ? t(lock) : undefined}
                  checked={checked}
                  disabled={disabled}
                  onChange={(e) => onBox(section.section, right.name, e.currentTarget.checked)}
                />
              ))}
            </Stack>
          </Fieldset>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
