import { use } from 'react';
import { Pill, TagsInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { readEmailDomain } from '@partner-portal/contracts';
import { useTranslation } from 'react-i18next';
import { administrationLocales } from '../lib/locales';

// Apart from the organization view's list (./allowed-domains.tsx): the tags input brings Mantine's
// combobox, which loads with the form's dialog, not with the page.

/** The typed domains that the portal refuses (the contracts' rule, readEmailDomain). */
export function refusedDomains(domains: readonly string[]): string[] {
  return domains.filter((d) => !readEmailDomain(d).valid);
}

/**
 * The editor of the allowed domains in the edit-organization form (provider administrators only).
 * Each chip is read by the contracts' rule as it is added (as the server reads it); a comma or a
 * semicolon ends a chip, a space does not, so "bad domain!" stays one chip, shown as refused and
 * named in the error.
 */
export function AllowedDomainsField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (domains: string[]) => void;
  error?: string | undefined;
}) {
  use(administrationLocales());
  const { t } = useTranslation();
  const refused = refusedDomains(value);
  const refusedError =
    refused.length > 0 ? t('allowedDomainsField.refused', { domains: refused.map((d) => `"${d}"`).join(', ') }) : undefined;
  return (
    <TagsInput
      label={t('adm_domains_label')}
      description={t('adm_domains_description')}
      placeholder={t('adm_domains_placeholder')}
      value={value}
      onChange={(next) => onChange([...new Set(next.map((d) => readEmailDomain(d).domain).filter(Boolean))])}
      splitChars={[',', ';']}
      maxTags={50}
      clearable
      error={refusedError ?? error}
      comboboxProps={{ zIndex: 1200 }}
      renderPill={({ value: domain = '', onRemove }) => {
        const invalid = !readEmailDomain(domain).valid;
        return (
          <Pill
            withRemoveButton
            onRemove={onRemove}
            // each chip removable by keyboard and screen reader too (Backspace reaches only the last)
            removeButtonProps={{ 'aria-label': t('allowedDomainsField.remove', { domain }), 'aria-hidden': false, tabIndex: 0 }}
            data-invalid={invalid || undefined}
            bg={invalid ? 'red.0' : undefined}
            c={invalid ? 'red.9' : undefined}
            bd={invalid ? '1px solid var(--mantine-color-red-7)' : undefined}
            title={invalid ? t('allowedDomainsField.refusedOne', { domain }) : undefined}
          >
            {invalid ? <IconAlertCircle size={12} aria-hidden style={{ marginInlineEnd: 4, verticalAlign: -1 }} /> : null}
            {domain}
          </Pill>
        );
      }}
    />
  );
}
