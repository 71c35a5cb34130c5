import type { TFunction } from 'i18next';
import { sectionByClientId, type AuditEntry } from '@partner-portal/contracts';

/**
 * An audit entry in words (docs/decisions/018-the-administrators-day.md, "Audit trail"): one
 * sentence in the interface language ("Klaus Müller removed Julia Weber (Farmtech Bayern)") and
 * the lines of what changed, rights by their application and right names as the rights editor
 * shows them. Every action the server records has its sentence; an unknown one reads as a
 * generic sentence with the action's name.
 */

/** One line of what changed: something added, taken away, or a plain note. */
export interface AuditChangeLine {
  kind: 'added' | 'removed' | 'note';
  text: string;
}

export interface AuditWords {
  sentence: string;
  changes: AuditChangeLine[];
}

/** What the sentence needs besides the entry: the organization's name and the action's translated name. */
export interface AuditContext {
  organization: string;
  actionLabel: (action: string) => string;
}

type Fields = Record<string, unknown>;

const fields = (value: unknown): Fields => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {});
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A right as the rights editor names it: "Academy: Access"; `path` is "academy.user_access" or "global_full_permission". */
export function rightLabel(path: string, t: TFunction): string {
  if (path === 'global_full_permission') return t('rights.global_full_permission');
  const [section = '', name = ''] = path.split('.');
  const title = t(`rights.${section}.title`, { defaultValue: section });
  return `${title}: ${t(`rights.${section}.${name}`, { defaultValue: t(`rights.common.${name}`, { defaultValue: name }) })}`;
}

/** The rights that are on, as "section.name" paths (global full permission as itself). */
function rightsOn(rights: unknown): Set<string> {
  const on = new Set<string>();
  for (const [key, value] of Object.entries(fields(rights))) {
    if (value === true) on.add(key);
    for (const [name, held] of Object.entries(fields(value))) if (held === true) on.add(`${key}.${name}`);
  }
  return on;
}

/** The rights given and taken away between two rights objects, by their names. */
export function rightsChanges(before: unknown, after: unknown, t: TFunction): AuditChangeLine[] {
  const was = rightsOn(before);
  const is = rightsOn(after);
  return [
    ...[...is].filter((r) => !was.has(r)).map((r): AuditChangeLine => ({ kind: 'added', text: rightLabel(r, t) })),
    ...[...was].filter((r) => !is.has(r)).map((r): AuditChangeLine => ({ kind: 'removed', text: rightLabel(r, t) })),
  ];
}

const appLabel = (clientId: string, t: TFunction) => {
  const section = sectionByClientId(clientId);
  return section ? t(`rights.${section.section}.title`, { defaultValue: clientId }) : clientId;
};

/** The apps given and taken away, and those whose availability to sub-organizations changed. */
function appsChanges(before: unknown, after: unknown, t: TFunction): AuditChangeLine[] {
  const apps = (value: unknown) =>
    new Map(
      (Array.isArray(value) ? value : []).map((a) => [String(fields(a).client_id), fields(a).available_for_sub_organizations === true]),
    );
  const was = apps(fields(before).apps);
  const is = apps(fields(after).apps);
  const lines: AuditChangeLine[] = [];
  for (const [app, forSub] of is) {
    if (!was.has(app)) lines.push({ kind: 'added', text: appLabel(app, t) });
    else if (was.get(app) !== forSub)
      lines.push({ kind: forSub ? 'added' : 'removed', text: t('auditWords.app_for_sub_organizations', { app: appLabel(app, t) }) });
  }
  for (const app of was.keys()) if (!is.has(app)) lines.push({ kind: 'removed', text: appLabel(app, t) });
  const taken = count(fields(after).descendant_assignments_removed);
  if (taken > 0) lines.push({ kind: 'note', text: t('auditWords.descendant_apps_removed', { count: taken }) });
  return lines;
}

/** The e-mail domains added and removed. */
function domainChanges(before: unknown, after: unknown): AuditChangeLine[] {
  const was = strings(fields(before).allowed_email_domains);
  const is = strings(fields(after).allowed_email_domains);
  return [
    ...is.filter((d) => !was.includes(d)).map((d): AuditChangeLine => ({ kind: 'added', text: `@${d}` })),
    ...was.filter((d) => !is.includes(d)).map((d): AuditChangeLine => ({ kind: 'removed', text: `@${d}` })),
  ];
}

/** The second factors a reset took away. */
function factorChanges(before: unknown, t: TFunction): AuditChangeLine[] {
  const lines: AuditChangeLine[] = [];
  if (fields(before).totp === true) lines.push({ kind: 'removed', text: t('auditWords.authenticator_app') });
  const passkeys = count(fields(before).passkeys);
  if (passkeys > 0) lines.push({ kind: 'removed', text: t('auditWords.passkeys', { count: passkeys }) });
  return lines;
}

/**
 * What changed in a sign-in connection: the e-mail domains given and taken away, its just-in-time
 * switch, its issuer, a new client secret (never the secret itself), the accounts a deletion unlinked.
 */
function connectionChanges(before: unknown, after: unknown, t: TFunction): AuditChangeLine[] {
  const was = strings(fields(before).domains);
  const is = strings(fields(after).domains);
  const lines: AuditChangeLine[] = [
    ...is.filter((d) => !was.includes(d)).map((d): AuditChangeLine => ({ kind: 'added', text: `@${d}` })),
    ...was.filter((d) => !is.includes(d)).map((d): AuditChangeLine => ({ kind: 'removed', text: `@${d}` })),
  ];
  const jit = fields(after).just_in_time;
  if (typeof jit === 'boolean' && jit !== fields(before).just_in_time)
    lines.push({ kind: jit ? 'added' : 'removed', text: t('auditWords.just_in_time') });
  const [issuerWas, issuerIs] = [text(fields(before).issuer), text(fields(after).issuer)];
  if (before && issuerWas && issuerIs && issuerWas !== issuerIs)
    lines.push(
      { kind: 'added', text: t('auditWords.issuer', { issuer: issuerIs }) },
      { kind: 'removed', text: t('auditWords.issuer', { issuer: issuerWas }) },
    );
  if (fields(after).client_secret_changed === true) lines.push({ kind: 'note', text: t('auditWords.client_secret_changed') });
  const unlinked = count(fields(after).unlinked_accounts);
  if (unlinked > 0) lines.push({ kind: 'note', text: t('auditWords.unlinked_accounts', { count: unlinked }) });
  return lines;
}

/** The details of a member a directory changed (SCIM), by their names: the new value given, the old one taken away. */
const MEMBER_FIELDS = ['email_address', 'first_name', 'last_name', 'language_code', 'external_id'] as const;

function memberChanges(before: unknown, after: unknown, t: TFunction): AuditChangeLine[] {
  const [was, is] = [fields(before), fields(after)];
  const lines: AuditChangeLine[] = [];
  for (const name of MEMBER_FIELDS) {
    if (!(name in is) || was[name] === is[name]) continue;
    const label = t(`auditWords.field_${name}`);
    if (text(is[name])) lines.push({ kind: 'added', text: `${label}: ${text(is[name])}` });
    if (text(was[name])) lines.push({ kind: 'removed', text: `${label}: ${text(was[name])}` });
  }
  if ('organization_id' in is && was.organization_id !== is.organization_id)
    lines.push({ kind: 'note', text: t('auditWords.moved_organization') });
  return lines;
}

/** The events a webhook's change subscribed it to and from ("*": every event). */
function webhookChanges(before: unknown, after: unknown, t: TFunction): AuditChangeLine[] {
  const named = (event: string) => (event === '*' ? t('auditWords.all_events') : event);
  const was = strings(fields(before).events);
  const is = strings(fields(after).events);
  return [
    ...is.filter((e) => !was.includes(e)).map((e): AuditChangeLine => ({ kind: 'added', text: named(e) })),
    ...was.filter((e) => !is.includes(e)).map((e): AuditChangeLine => ({ kind: 'removed', text: named(e) })),
  ];
}

/** The first of the fields that holds a text, in `after` then in `before`. */
function firstText(entry: AuditEntry, names: string[]): string | null {
  for (const source of [fields(entry.after), fields(entry.before)])
    for (const name of names) if (text(source[name])) return text(source[name]);
  return null;
}

/** The one who asked for access: the names they gave, else the address. */
function requesterOf(entry: AuditEntry): string {
  const name = [firstText(entry, ['first_name']), firstText(entry, ['last_name'])].filter(Boolean).join(' ');
  return name || subjectOf(entry);
}

/** Who the entry is about: the member's or invitee's name, else their address. */
function subjectOf(entry: AuditEntry): string {
  const address = text(fields(entry.before).email_address) ?? text(fields(entry.after).email_address);
  return entry.subject_name ?? entry.subject_email ?? address ?? '—';
}

/** Who made the change: a person, a service account, a directory, the portal; in a support session "supporter as member". */
function actorOf(entry: AuditEntry, t: TFunction): string {
  const actor = entry.actor_name ?? entry.actor_email ?? t('auditWords.system');
  if (!entry.supported_by) return actor;
  return t('auditWords.support_as', { supporter: entry.supported_by.name ?? entry.supported_by.email, member: actor });
}

/** The sentence and changes of a change that was made (not refused). */
function madeChange(entry: AuditEntry, action: string, t: TFunction, context: AuditContext): AuditWords {
  const actor = actorOf(entry, t);
  const words = { actor, organization: context.organization, subject: subjectOf(entry) };
  const before = fields(entry.before);
  const after = fields(entry.after);
  const say = (key: string, changes: AuditChangeLine[] = [], extra: Fields = {}): AuditWords => ({
    sentence: t(`auditWords.${key}`, { ...words, ...extra }),
    changes,
  });
  switch (action) {
    case 'member.remove':
      return say('member_remove');
    case 'member.rights.update':
      return say('member_rights_update', rightsChanges(before.rights, after.rights, t));
    case 'member.second_factors.reset':
      return say('member_second_factors_reset', factorChanges(before, t));
    case 'member.sign_out':
      return say('member_sign_out');
    case 'member.provision': {
      const external = after.sign_in === 'single_sign_on' ? [{ kind: 'note' as const, text: t('auditWords.external') }] : [];
      const inactive = after.active === false ? [{ kind: 'note' as const, text: t('auditWords.provisioned_inactive') }] : [];
      return say('member_provision', [...external, ...inactive]);
    }
    case 'member.update':
      return say('member_update', memberChanges(before, after, t));
    case 'member.deactivate':
      return say('member_deactivate');
    case 'member.reactivate':
      return say('member_reactivate');
    case 'invitation.create': {
      const external = after.is_external_identity_provider === true ? [{ kind: 'note' as const, text: t('auditWords.external') }] : [];
      return say('invitation_create', [...rightsChanges(null, after.rights, t), ...external]);
    }
    case 'invitation.resend':
      return say('invitation_resend');
    case 'invitation.revoke':
      return say('invitation_revoke');
    case 'invitation.accept':
      return say('invitation_accept');
    case 'invitation.bulk': {
      const refused = count(after.refused);
      const lines = rightsChanges(null, after.rights, t);
      if (refused > 0) lines.push({ kind: 'note', text: t('auditWords.bulk_refused', { count: refused }) });
      return say('invitation_bulk', lines, { count: count(after.sent) });
    }
    case 'organization.create': {
      const apps = strings(after.client_ids).map((app): AuditChangeLine => ({ kind: 'added', text: appLabel(app, t) }));
      if (after.can_create_sub_organization === true) apps.push({ kind: 'note', text: t('auditWords.may_create_sub_organizations') });
      return say('organization_create', apps, { name: text(after.name) ?? context.organization });
    }
    case 'organization.update':
      return say('organization_update', [], { before: text(before.name) ?? '—', after: text(after.name) ?? context.organization });
    case 'organization.delete':
      return say('organization_delete', [], { name: text(before.name) ?? '—' });
    case 'organization.apps.update':
      return say('organization_apps_update', appsChanges(before, after, t));
    case 'organization.bootstrap':
      return say('organization_bootstrap', [], { administrator: text(after.administrator) ?? '—' });
    case 'demo.seed':
      return say('demo_seed');
    case 'organization.can_create_sub_organizations.update':
      return say(after.can_create_sub_organization === true ? 'sub_organizations_allowed' : 'sub_organizations_forbidden');
    case 'organization.allowed_email_domains.update':
      return say('organization_allowed_email_domains_update', domainChanges(before, after));
    case 'organization.second_factor_policy.require':
      return say('second_factor_required');
    case 'organization.second_factor_policy.lift':
      return say('second_factor_lifted');
    case 'domain.claim':
    case 'domain.verify':
    case 'domain.delete':
    case 'domain.unverified':
      return say(action.replace('.', '_'), [], { domain: firstText(entry, ['domain']) ?? '—' });
    case 'sso_connection.create':
      return say('sso_connection_create', connectionChanges(null, after, t), { name: firstText(entry, ['name']) ?? '—' });
    case 'sso_connection.update':
      return say('sso_connection_update', connectionChanges(before, after, t), { name: firstText(entry, ['name']) ?? '—' });
    case 'sso_connection.delete':
      return say('sso_connection_delete', connectionChanges(before, after, t), { name: firstText(entry, ['name']) ?? '—' });
    case 'sso_connection.member_joined':
      return say('sso_connection_member_joined', [], { name: firstText(entry, ['connection_name', 'connection', 'name']) ?? '—' });
    case 'service_account.create':
    case 'service_account.delete': {
      const held = action.endsWith('.create') ? after : before;
      const granted = [
        ...(held.user_manager === true ? ['partner_portal.user_user_manager'] : []),
        ...(held.organization_manager === true ? ['partner_portal.user_sub_organization_manager'] : []),
      ].map((r): AuditChangeLine => ({ kind: action.endsWith('.create') ? 'added' : 'removed', text: rightLabel(r, t) }));
      return say(action.replace('.', '_'), granted, { name: firstText(entry, ['name']) ?? '—' });
    }
    case 'scim_token.create':
    case 'scim_token.delete':
      return say(action.replace('.', '_'), [], { name: firstText(entry, ['name']) ?? '—' });
    case 'webhook.create':
    case 'webhook.update':
    case 'webhook.delete':
      return say(action.replace('.', '_'), webhookChanges(before, after, t), { url: firstText(entry, ['url']) ?? '—' });
    case 'webhook.delivery.retry':
      return say('webhook_delivery_retry', [], { event: firstText(entry, ['event_type']) ?? '—' });
    case 'organization.connection_policy.set':
      return say(after.sub_organizations_may_connect === false ? 'connection_policy_forbidden' : 'connection_policy_allowed');
    case 'setup_link.create':
    case 'setup_link.open':
    case 'setup_link.revoke':
      return say(action.replace('.', '_'), [], { email: firstText(entry, ['email']) ?? entry.actor_email ?? '—' });
    case 'support_access.update':
      return say(after.allowed === true ? 'support_access_allowed' : 'support_access_refused');
    case 'support_session.create':
    case 'support_session.start':
    case 'support_session.end':
      return say(action.replace('.', '_'));
    case 'access_request.create':
    case 'access_request.approve':
    case 'access_request.decline':
      return say(action.replace('.', '_'), [], { subject: requesterOf(entry) });
    default:
      return say('other', [], { action: context.actionLabel(action) });
  }
}

/** An audit entry as a sentence and the lines of what changed; a refusal says what was refused and why. */
export function auditWords(entry: AuditEntry, t: TFunction, context: AuditContext): AuditWords {
  if (!entry.action.endsWith('.refused')) return madeChange(entry, entry.action, t, context);
  const base = entry.action.slice(0, -'.refused'.length);
  const after = fields(entry.after);
  const attempted = madeChange({ ...entry, action: base, after: after.attempted ?? null }, base, t, context);
  const reason = text(after.refused);
  const rights = strings(after.rights).map((r) => rightLabel(r, t));
  const changes: AuditChangeLine[] = reason ? [{ kind: 'note', text: t(reason, { rights: rights.join(', '), defaultValue: reason }) }] : [];
  return {
    sentence: t('auditWords.refused', {
      actor: actorOf(entry, t),
      action: context.actionLabel(base),
      subject: base.startsWith('organization.') ? context.organization : subjectOf(entry),
    }),
    changes: [...changes, ...attempted.changes],
  };
}
