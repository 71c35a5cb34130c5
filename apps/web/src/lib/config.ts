import type { PortalConfiguration as ServerConfiguration } from '@partner-portal/contracts';
import { load, useAnswer } from './answers';
import { api } from './api';

/**
 * Site settings the operator configures on the server (README: PRIVACY_STATEMENT_URL, EULA_URL,
 * SALES_CONTACT_EMAIL, LOGIN_VIDEO_URL), in the shape of contracts' portalConfigurationSchema, plus
 * the login video's still, which only the web app has. They are read from GET
 * /api/portal/configuration when the server offers it; until then (or when it fails) the defaults
 * below, which match the server's defaults, are used. Only the type is imported, so the login
 * page does not load zod.
 */
export type PortalConfiguration = ServerConfiguration & { login_video_poster_url: string };

export const DEFAULT_CONFIGURATION: PortalConfiguration = {
  privacy_statement_url: 'https://www.nedap.com/privacy-statement/',
  eula_url: '/documents/end-user-licence-agreement.pdf',
  sales_contact_email: 'sales@example.com',
  login_video_url: '/media/pasture.webm',
  login_video_poster_url: '/media/pasture.svg',
};

/**
 * The settings the server put into the page it served (index.html's `portal-configuration`
 * element: apps/server/src/modules/web/prerendered.ts), over the defaults: the first render — a
 * pre-rendered page's hydration included — shows the configured sales contact, not the default.
 */
function settingsInPage(): PortalConfiguration {
  const text = typeof document === 'undefined' ? null : document.getElementById('portal-configuration')?.textContent;
  if (!text) return DEFAULT_CONFIGURATION;
  try {
    return merged(JSON.parse(text) as Partial<PortalConfiguration>);
  } catch {
    return DEFAULT_CONFIGURATION;
  }
}

/** The defaults with every non-empty string of `given` in their place. */
function merged(given: Partial<PortalConfiguration> | null | undefined): PortalConfiguration {
  const out = { ...DEFAULT_CONFIGURATION };
  for (const key of Object.keys(DEFAULT_CONFIGURATION) as (keyof PortalConfiguration)[]) {
    const value = given?.[key];
    if (typeof value === 'string' && value) out[key] = value;
  }
  return out;
}

/** The site settings before any answer: the page's, else the defaults. */
export const INITIAL_CONFIGURATION: PortalConfiguration = settingsInPage();

export const configurationQueryKey = ['portal', 'configuration'] as const;

export async function fetchConfiguration(): Promise<PortalConfiguration> {
  try {
    return merged({ ...INITIAL_CONFIGURATION, ...(await api.get<Partial<PortalConfiguration>>('/portal/configuration', { retries: 0 })) });
  } catch {
    return INITIAL_CONFIGURATION;
  }
}

/** The site settings, asked for once per page load (lib/answers.ts), and the defaults until they come. */
const CONFIGURATION_ANSWER = 'configuration';
export const loadConfiguration = () => load(CONFIGURATION_ANSWER, fetchConfiguration);

/** The site settings in a component without the query client (the login route). */
export function useConfiguration(): PortalConfiguration {
  return useAnswer(CONFIGURATION_ANSWER, fetchConfiguration).data ?? INITIAL_CONFIGURATION;
}

/** The site settings for the query client: the same single request. */
export const configurationQuery = {
  queryKey: configurationQueryKey,
  queryFn: loadConfiguration,
  staleTime: Infinity,
  gcTime: Infinity,
} as const;
