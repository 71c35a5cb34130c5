import type { TFunction } from 'i18next';
import { sectionByClientId } from '@partner-portal/contracts';

/** An application's name in the interface language (the rights editor's section title), else its catalogue name. */
export function appName(app: { client_id: string; name: string }, t: TFunction): string {
  const section = sectionByClientId(app.client_id);
  return section ? t(`rights.${section.section}.title`, { defaultValue: app.name }) : app.name;
}
