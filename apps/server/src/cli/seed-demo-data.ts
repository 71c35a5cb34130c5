import { CLIENT_IDS, type Rights } from '@partner-portal/contracts';

/** The demo tree of npm run seed:demo (cli/seed-demo.ts): its organizations, members and invitations. */

/** The apps of the demo's partner organizations: every app of the catalogue but the control tower and the ordering tools. */
const PROVIDER_TOOLS: string[] = [CLIENT_IDS.control_tower, CLIENT_IDS.ordering_tools];
export const PARTNER_APPS = Object.values(CLIENT_IDS).filter((app) => !PROVIDER_TOOLS.includes(app));

export interface DemoOrg {
  name: string;
  parent: string | null; // name of the parent, null: under the root
  canCreate: boolean;
  apps: string[];
  domains?: string[];
}

export const ORGANIZATIONS: DemoOrg[] = [
  {
    name: 'Agri Partners Benelux B.V.',
    parent: null,
    canCreate: true,
    apps: PARTNER_APPS,
    domains: ['agripartners.example', 'dealer-noord.example', 'devries.example'],
  },
  {
    name: 'Dealer Noord',
    parent: 'Agri Partners Benelux B.V.',
    canCreate: true,
    apps: ['partner-portal', 'loyalty-app', 'media-library', 'learnspace', 'freshdesk'],
  },
  { name: 'Melkveebedrijf De Vries', parent: 'Dealer Noord', canCreate: false, apps: ['partner-portal', 'media-library', 'learnspace'] },
  {
    name: 'Dealer Zuid',
    parent: 'Agri Partners Benelux B.V.',
    canCreate: false,
    apps: ['partner-portal', 'loyalty-app', 'subscriptions-app', 'media-library'],
  },
  { name: 'Farmtech GmbH', parent: null, canCreate: true, apps: PARTNER_APPS },
  { name: 'Farmtech Bayern', parent: 'Farmtech GmbH', canCreate: false, apps: ['partner-portal', 'subscriptions-app', 'learnspace'] },
  {
    name: 'Élevage Services SARL',
    parent: null,
    canCreate: false,
    apps: ['partner-portal', 'loyalty-app', 'media-library', 'learnspace', 'profit_calculator'],
  },
];

export interface DemoMember {
  email: string;
  first: string;
  last: string;
  language: string;
  organization: string | null; // null: the root organization
  rights: (r: Rights) => void;
}

/**
 * The demo's members, a line each: e-mail address | first name | last name | language |
 * organization (-: the root organization) | rights, as section.right or a flag of Rights, spaces between.
 */
const MEMBER_TABLE = `
eva.staff@nedap.example          | Eva    | Staff    | nl | -                          | partner_portal.nedap_user_full_permission loyalty.nedap_user_business_partner_manager ordering_tools.nedap_user_manage_articles_and_license_items
anna.jansen@agripartners.example | Anna   | Jansen   | nl | Agri Partners Benelux B.V. | partner_portal.user_full_permission loyalty.user_full_permission media_library.user_access
piet.deboer@agripartners.example | Piet   | de Boer  | nl | Agri Partners Benelux B.V. | partner_portal.user_user_manager subscription.user_suspender
lisa.bakker@dealer-noord.example | Lisa   | Bakker   | en | Dealer Noord               | partner_portal.user_user_manager partner_portal.user_sub_organization_manager loyalty.user_request_manager
jan.devries@devries.example      | Jan    | de Vries | nl | Melkveebedrijf De Vries    | media_library.user_access academy.user_access
tom.peeters@dealer-zuid.example  | Tom    | Peeters  | en | Dealer Zuid                | loyalty.user_access subscription.user_access
klaus.mueller@farmtech.example   | Klaus  | Müller   | de | Farmtech GmbH              | global_full_permission
julia.weber@farmtech.example     | Julia  | Weber    | de | Farmtech Bayern            | subscription.user_access academy.user_access
sophie.martin@elevage.example    | Sophie | Martin   | fr | Élevage Services SARL      | partner_portal.user_full_permission profit_calculator.user_access
`;

/** Set one right (section.right) or flag (global_full_permission) of the table; a name Rights does not have is a mistake of the table. */
function grant(rights: Rights, name: string): void {
  const [first, second] = name.split('.') as [string, string | undefined];
  const holder: Record<string, unknown> =
    second === undefined ? rights : ((rights as unknown as Record<string, Record<string, unknown>>)[first] ?? {});
  const key = second ?? first;
  if (typeof holder[key] !== 'boolean') throw new Error(`seed:demo: no right ${name}`);
  holder[key] = true;
}

export const MEMBERS: DemoMember[] = MEMBER_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [email = '', first = '', last = '', language = '', organization = '', rights = ''] = line.split('|').map((c) => c.trim());
    const grantAll = (r: Rights) => rights.split(/\s+/).forEach((name) => grant(r, name));
    return { email, first, last, language, organization: organization === '-' ? null : organization, rights: grantAll };
  });

export interface DemoInvitation {
  email: string;
  organization: string;
  language: string;
  state: 'PENDING' | 'ACCEPTED' | 'REVOKED';
}

export const INVITATIONS: DemoInvitation[] = [
  { email: 'new.colleague@agripartners.example', organization: 'Agri Partners Benelux B.V.', language: 'nl', state: 'PENDING' },
  { email: 'mark.visser@dealer-noord.example', organization: 'Dealer Noord', language: 'en', state: 'PENDING' },
  { email: 'hans.schmidt@farmtech.example', organization: 'Farmtech Bayern', language: 'de', state: 'PENDING' },
  { email: 'jan.devries@devries.example', organization: 'Melkveebedrijf De Vries', language: 'nl', state: 'ACCEPTED' },
  { email: 'julia.weber@farmtech.example', organization: 'Farmtech Bayern', language: 'de', state: 'ACCEPTED' },
  { email: 'old.contact@farmtech.example', organization: 'Farmtech GmbH', language: 'de', state: 'REVOKED' },
  { email: 'pierre.durand@elevage.example', organization: 'Élevage Services SARL', language: 'fr', state: 'REVOKED' },
];
