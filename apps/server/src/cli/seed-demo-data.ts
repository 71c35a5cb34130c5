import { type Rights } from '@partner-portal/contracts';

/** The demo tree of npm run seed:demo (cli/seed-demo.ts): its organizations, members and invitations. */

export const PARTNER_APPS = [
  'partner-portal',
  'loyalty-app',
  'subscriptions-app',
  'product-information',
  'freshdesk',
  'media-library',
  'learnspace',
  'profit_calculator',
];

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

export const MEMBERS: DemoMember[] = [
  {
    email: 'eva.staff@nedap.example',
    first: 'Eva',
    last: 'Staff',
    language: 'nl',
    organization: null,
    rights: (r) => {
      r.partner_portal.nedap_user_full_permission = true;
      r.loyalty.nedap_user_business_partner_manager = true;
      r.ordering_tools.nedap_user_manage_articles_and_license_items = true;
    },
  },
  {
    email: 'anna.jansen@agripartners.example',
    first: 'Anna',
    last: 'Jansen',
    language: 'nl',
    organization: 'Agri Partners Benelux B.V.',
    rights: (r) => {
      r.partner_portal.user_full_permission = true;
      r.loyalty.user_full_permission = true;
      r.media_library.user_access = true;
    },
  },
  {
    email: 'piet.deboer@agripartners.example',
    first: 'Piet',
    last: 'de Boer',
    language: 'nl',
    organization: 'Agri Partners Benelux B.V.',
    rights: (r) => {
      r.partner_portal.user_user_manager = true;
      r.subscription.user_suspender = true;
    },
  },
  {
    email: 'lisa.bakker@dealer-noord.example',
    first: 'Lisa',
    last: 'Bakker',
    language: 'en',
    organization: 'Dealer Noord',
    rights: (r) => {
      r.partner_portal.user_user_manager = true;
      r.partner_portal.user_sub_organization_manager = true;
      r.loyalty.user_request_manager = true;
    },
  },
  {
    email: 'jan.devries@devries.example',
    first: 'Jan',
    last: 'de Vries',
    language: 'nl',
    organization: 'Melkveebedrijf De Vries',
    rights: (r) => {
      r.media_library.user_access = true;
      r.academy.user_access = true;
    },
  },
  {
    email: 'tom.peeters@dealer-zuid.example',
    first: 'Tom',
    last: 'Peeters',
    language: 'en',
    organization: 'Dealer Zuid',
    rights: (r) => {
      r.loyalty.user_access = true;
      r.subscription.user_access = true;
    },
  },
  {
    email: 'klaus.mueller@farmtech.example',
    first: 'Klaus',
    last: 'Müller',
    language: 'de',
    organization: 'Farmtech GmbH',
    rights: (r) => {
      r.global_full_permission = true;
    },
  },
  {
    email: 'julia.weber@farmtech.example',
    first: 'Julia',
    last: 'Weber',
    language: 'de',
    organization: 'Farmtech Bayern',
    rights: (r) => {
      r.subscription.user_access = true;
      r.academy.user_access = true;
    },
  },
  {
    email: 'sophie.martin@elevage.example',
    first: 'Sophie',
    last: 'Martin',
    language: 'fr',
    organization: 'Élevage Services SARL',
    rights: (r) => {
      r.partner_portal.user_full_permission = true;
      r.profit_calculator.user_access = true;
    },
  },
];

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
