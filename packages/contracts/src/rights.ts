/**
 * The rights catalogue (docs/product.md, "People, organizations and invitations" and "Roles and rights") and its pure rules. Used by the server to enforce and by the
 * web app's rights editor to show, so that both always agree.
 */

/** How a right behaves in the editor and in enforcement. */
export type RightKind =
  | 'access' // user_access: the right to open the app
  | 'full' // user_full_permission: everything in the app, outside the provider's organization
  | 'provider_full' // nedap_user_full_permission: everything in the app, for provider staff
  | 'sub' // a sub-right; ticking it ticks access
  | 'provider_sub' // a sub-right for provider staff only
  | 'non_provider_sub' // a sub-right outside the provider's organization only
  | 'developer'; // developer options: provider's root organization, set by a developer

export interface RightDefinition {
  readonly name: string;
  readonly kind: RightKind;
}

export interface AppSection {
  /** key of the section in the rights object */
  readonly section: SectionKey;
  /** OpenID Connect client id of the app in the catalogue */
  readonly clientId: string;
  /** translation key of the section title */
  readonly titleKey: string;
  readonly rights: readonly RightDefinition[];
  /** shown for every organization, whatever its apps (Partner Portal) */
  readonly always?: boolean;
  /** feature flag pair that gates the section (Control Tower, Ordering Tools) */
  readonly feature?: { readonly enabled: FeatureKey; readonly enabledForNonProvider: FeatureKey };
}

export const FEATURE_KEYS = [
  'control_tower_enabled',
  'control_tower_enabled_for_non_nedap_users',
  'ordering_tools_enabled',
  'ordering_tools_enabled_for_non_nedap_users',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

/** The feature flags from stored or received values: a flag not given (or not true) is off. */
export function featuresFrom(flags: Readonly<Record<string, boolean | undefined>>): Features {
  return Object.fromEntries(FEATURE_KEYS.map((k) => [k, flags[k] === true])) as Features;
}

export const SECTION_KEYS = [
  'partner_portal',
  'loyalty',
  'subscription',
  'product_information',
  'support_center',
  'media_library',
  'academy',
  'profit_calculator',
  'control_tower',
  'ordering_tools',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

const r = (name: string, kind: RightKind): RightDefinition => ({ name, kind });

export const CLIENT_IDS = {
  partner_portal: 'partner-portal',
  loyalty: 'loyalty-app',
  subscription: 'subscriptions-app',
  product_information: 'product-information',
  support_center: 'freshdesk',
  media_library: 'media-library',
  academy: 'learnspace',
  profit_calculator: 'profit_calculator',
  control_tower: 'control-tower-app',
  ordering_tools: 'ordering-tools-app',
} as const satisfies Record<SectionKey, string>;

/** An app whose rights are only access, full permission and the provider's full permission. */
const accessAndFull = (section: SectionKey): AppSection => ({
  section,
  clientId: CLIENT_IDS[section],
  titleKey: `rights.${section}.title`,
  rights: [r('user_access', 'access'), r('user_full_permission', 'full'), r('nedap_user_full_permission', 'provider_full')],
});

export const APP_SECTIONS: readonly AppSection[] = [
  {
    section: 'partner_portal',
    clientId: CLIENT_IDS.partner_portal,
    titleKey: 'rights.partner_portal.title',
    always: true,
    rights: [
      r('user_user_manager', 'sub'),
      r('user_sub_organization_manager', 'sub'),
      r('user_full_permission', 'full'),
      r('nedap_user_full_permission', 'provider_full'),
      r('developer', 'developer'),
    ],
  },
  {
    section: 'loyalty',
    clientId: CLIENT_IDS.loyalty,
    titleKey: 'rights.loyalty.title',
    rights: [
      r('user_access', 'access'),
      r('user_request_manager', 'sub'),
      r('user_full_permission', 'full'),
      r('nedap_user_full_permission', 'provider_full'),
      r('nedap_user_order_manager', 'provider_sub'),
      r('nedap_user_business_partner_manager', 'provider_sub'),
      r('developer', 'developer'),
    ],
  },
  {
    section: 'subscription',
    clientId: CLIENT_IDS.subscription,
    titleKey: 'rights.subscription.title',
    rights: [
      r('user_access', 'access'),
      r('user_suspender', 'non_provider_sub'),
      r('user_full_permission', 'full'),
      r('nedap_user_full_permission', 'provider_full'),
      r('nedap_user_business_partner_manager', 'provider_sub'),
      r('developer', 'developer'),
    ],
  },
  {
    section: 'product_information',
    clientId: CLIENT_IDS.product_information,
    titleKey: 'rights.product_information.title',
    rights: [
      r('user_access', 'access'),
      r('user_full_permission', 'full'),
      r('nedap_user_full_permission', 'provider_full'),
      r('user_import_products_from_airtable', 'provider_sub'),
    ],
  },
  accessAndFull('support_center'),
  accessAndFull('media_library'),
  accessAndFull('academy'),
  accessAndFull('profit_calculator'),
  {
    section: 'control_tower',
    clientId: CLIENT_IDS.control_tower,
    titleKey: 'rights.control_tower.title',
    feature: { enabled: 'control_tower_enabled', enabledForNonProvider: 'control_tower_enabled_for_non_nedap_users' },
    rights: [
      r('user_access', 'access'),
      r('access_farmer_applications', 'sub'),
      r('nedap_user_full_permission', 'provider_full'),
      r('developer', 'developer'),
    ],
  },
  {
    section: 'ordering_tools',
    clientId: CLIENT_IDS.ordering_tools,
    titleKey: 'rights.ordering_tools.title',
    feature: { enabled: 'ordering_tools_enabled', enabledForNonProvider: 'ordering_tools_enabled_for_non_nedap_users' },
    rights: [
      r('user_access', 'access'),
      r('user_full_permission', 'full'),
      r('nedap_user_full_permission', 'provider_full'),
      r('nedap_user_manage_articles_and_license_items', 'provider_sub'),
      r('nedap_user_import_order_references', 'provider_sub'),
      r('developer', 'developer'),
    ],
  },
];

export function sectionByClientId(clientId: string): AppSection | undefined {
  return APP_SECTIONS.find((s) => s.clientId === clientId);
}

export type SectionRights = Record<string, boolean>;
export type Rights = { global_full_permission: boolean } & Record<SectionKey, SectionRights>;
export type RightsInput = { global_full_permission?: boolean } & Partial<Record<SectionKey, Partial<SectionRights>>>;

export function emptyRights(): Rights {
  return toRights(null);
}

/**
 * Parse stored or received rights leniently into the full shape (unknown boxes dropped). Built in
 * one pass: every authenticated request makes the session user's rights with it.
 */
export function toRights(input: unknown): Rights {
  const source = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const rights = { global_full_permission: source.global_full_permission === true } as Rights;
  for (const s of APP_SECTIONS) {
    const value = source[s.section];
    const given = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const section: Record<string, boolean> = {};
    for (const right of s.rights) section[right.name] = given[right.name] === true;
    rights[s.section] = section;
  }
  return rights;
}

// ---- where a right may be given ---------------------------------------------------------------

/** What decides which boxes the editor offers for one member. */
export interface RightsContext {
  /** the member's organization is the provider's root organization (parent_id null) */
  isProviderOrganization: boolean;
  /** the client ids of the apps the member's organization has */
  organizationClientIds: readonly string[];
  /** the feature flags of the portal */
  features: Features;
  /** the person editing is a developer */
  editorIsDeveloper: boolean;
}

/** Sections the editor shows: root sees all; others follow the organization's apps and features. */
export function visibleSections(ctx: RightsContext): AppSection[] {
  return APP_SECTIONS.filter((s) => {
    if (s.feature) {
      if (!ctx.features[s.feature.enabled]) return false;
      if (ctx.isProviderOrganization) return true;
      return ctx.features[s.feature.enabledForNonProvider] && ctx.organizationClientIds.includes(s.clientId);
    }
    if (s.always || ctx.isProviderOrganization) return true;
    return ctx.organizationClientIds.includes(s.clientId);
  });
}

/** Whether one box is offered in this context. */
export function isRightOffered(right: RightDefinition, ctx: RightsContext): boolean {
  switch (right.kind) {
    case 'access':
    case 'sub':
      return true;
    case 'full':
    case 'non_provider_sub':
      return !ctx.isProviderOrganization;
    case 'provider_full':
    case 'provider_sub':
      return ctx.isProviderOrganization;
    case 'developer':
      return ctx.isProviderOrganization && ctx.editorIsDeveloper;
  }
}

export function offeredRights(section: AppSection, ctx: RightsContext): RightDefinition[] {
  return section.rights.filter((right) => isRightOffered(right, ctx));
}

/** Global full permission exists only outside the provider's organization. */
export function isGlobalFullPermissionOffered(ctx: RightsContext): boolean {
  return !ctx.isProviderOrganization;
}

/** The full-permission box of a section in this context (provider staff use the provider variant). */
export function fullPermissionRight(section: AppSection, ctx: RightsContext): RightDefinition | undefined {
  const kind: RightKind = ctx.isProviderOrganization ? 'provider_full' : 'full';
  return section.rights.find((x) => x.kind === kind);
}

export function accessRight(section: AppSection): RightDefinition | undefined {
  return section.rights.find((x) => x.kind === 'access');
}

/** The boxes that full permission of a section switches on (access and offered sub-rights). */
export function rightsImpliedByFull(section: AppSection, ctx: RightsContext): RightDefinition[] {
  return offeredRights(section, ctx).filter(
    (x) => x.kind === 'access' || x.kind === 'sub' || x.kind === 'provider_sub' || x.kind === 'non_provider_sub',
  );
}

export function isSubRight(right: RightDefinition): boolean {
  return right.kind === 'sub' || right.kind === 'provider_sub' || right.kind === 'non_provider_sub';
}

/** Boxes ticked in `rights` that may not be given in this context, as "section.right" names. */
export function disallowedRights(rights: Rights, ctx: RightsContext): string[] {
  const wrong: string[] = [];
  if (rights.global_full_permission && !isGlobalFullPermissionOffered(ctx)) wrong.push('global_full_permission');
  const visible = new Set(visibleSections(ctx).map((s) => s.section));
  for (const s of APP_SECTIONS) {
    for (const right of s.rights) {
      if (!rights[s.section][right.name]) continue;
      if (!visible.has(s.section) || !isRightOffered(right, ctx)) wrong.push(`${s.section}.${right.name}`);
    }
  }
  return wrong;
}

/**
 * Apply the implications of docs/product.md, "Roles and rights": global full permission ticks every app's full permission,
 * an app's full permission ticks access and its sub-rights, a sub-right ticks access.
 * Boxes not offered in the context are cleared.
 */
export function applyRightsRules(input: Rights, ctx: RightsContext): Rights {
  const rights = emptyRights();
  const global = input.global_full_permission && isGlobalFullPermissionOffered(ctx);
  rights.global_full_permission = global;
  for (const s of visibleSections(ctx)) {
    const offered = offeredRights(s, ctx);
    const target = rights[s.section];
    for (const right of offered) target[right.name] = input[s.section][right.name] === true;
    const full = fullPermissionRight(s, ctx);
    if (full && (global || target[full.name])) {
      target[full.name] = true;
      for (const implied of rightsImpliedByFull(s, ctx)) target[implied.name] = true;
    }
    const access = accessRight(s);
    if (access && offered.some((x) => isSubRight(x) && target[x.name])) target[access.name] = true;
  }
  return rights;
}

// ---- what rights mean for the portal ----------------------------------------------------------

/** Full permission in an app: its own (either variant) or global full permission. */
export function hasFullPermission(rights: Rights, section: SectionKey): boolean {
  const s = rights[section];
  return rights.global_full_permission || s.user_full_permission === true || s.nedap_user_full_permission === true;
}

/** userManager: may invite, resend, revoke, remove members and edit rights. */
export function isUserManager(rights: Rights): boolean {
  return hasFullPermission(rights, 'partner_portal') || rights.partner_portal.user_user_manager === true;
}

/** organizationManager: may create, edit and delete sub-organizations. */
export function isOrganizationManager(rights: Rights): boolean {
  return hasFullPermission(rights, 'partner_portal') || rights.partner_portal.user_sub_organization_manager === true;
}

/** Whether the rights open an app (its access, full permission, or any sub-right). */
export function hasAppAccess(rights: Rights, section: SectionKey): boolean {
  if (section === 'partner_portal') return true;
  if (hasFullPermission(rights, section)) return true;
  return Object.values(rights[section]).some((v) => v === true);
}
