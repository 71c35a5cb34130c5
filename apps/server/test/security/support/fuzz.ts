import fc from 'fast-check';
import type { JsonSchema } from './routes.js';

/**
 * Arbitraries for robustness tests: hostile strings, values of a JSON schema with one part made
 * wrong, malformed JSON text, and path parameters that are not ids.
 */
export const HUGE = 'A'.repeat(100 * 1024);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b@example.com',
    '😀'.repeat(60),
    '\uD800',
    '\uFEFF\u202E\u200B',
    'ä'.repeat(200),
    HUGE,
    `${'x'.repeat(101)}@example.com`,
    "' OR '1'='1",
    '"; DROP TABLE users; --',
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '%00',
    '${jndi:ldap://127.0.0.1/a}',
    '=cmd|" /C calc"!A0',
    'admin@example.com',
    '00000000-0000-0000-0000-000000000000',
    'NaN',
    '-1',
    '1e309',
  ),
);

const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.5));

/** Any JSON value, including deep and large ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [[[[[]]]]], { __proto__: { admin: true } }),
);

/** A value that fits the schema roughly (the right types, hostile contents). */
export function valueOf(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => valueOf(s, depth + 1)));
  if (schema.allOf?.length) return valueOf(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return schema.format === 'email' ? fc.oneof(fc.emailAddress(), hostileString) : fc.oneof(fc.uuid(), hostileString);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return hostileNumber;
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf(schema.items, depth + 1), { maxLength: 4 });
    case 'object': {
      const props = schema.properties ?? {};
      const names = Object.keys(props);
      if (!names.length) return fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 });
      return fc.record(Object.fromEntries(names.map((n) => [n, valueOf(props[n], depth + 1)])), { requiredKeys: [] });
    }
    default:
      return anyJson;
  }
}

/** A schema value with one property replaced by a value of another type. */
export function wrongTypeOf(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const props = schema?.properties;
  if (!props || !Object.keys(props).length) return anyJson;
  return fc.tuple(valueOf(schema), fc.constantFrom(...Object.keys(props)), anyJson).map(([value, key, wrong]) => {
    const v = value && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
    (v as Record<string, unknown>)[key] = wrong;
    return v;
  });
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** JSON text that is not valid JSON, or valid JSON a parser may choke on. */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '{"email": "a@b.c",}',
    "{'a': 1}",
    'nul',
    '\u0000',
    '[1,2',
    '"unterminated',
    '{"__proto__": {"isAdmin": true}}',
    '{"constructor": {"prototype": {"isAdmin": true}}}',
    deep(10_000),
    `{"a":"${HUGE}"}`,
    '\uFEFF{}',
    '{"a":1,"a":2}',
    '1e99999',
  ),
  fc.string({ maxLength: 50 }),
);

/** Path parameter values that are not ids. Each is sent as given (already URL-encoded where needed). */
export const badPathParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%00',
    '..',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    'a'.repeat(190),
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '%F0%9F%98%80',
    '%E2%80%AE',
    '%',
    '%zz',
    '%C0%AF',
    "1'%20OR%20'1'%3D'1",
    '-1',
    '9999999999999999999999',
    'null',
    'undefined',
    '__proto__',
    'constructor',
  ),
  fc.uuid().map((u) => u),
  fc
    .string({ maxLength: 30 })
    .filter((s) => s.length > 0)
    .map((s) => encodeURIComponent(s)),
);

/** A query value: hostile strings (encoded when put into the URL). */
export const badQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((s) => (s.length > 4000 ? s.slice(0, 4000) : s)),
  fc.constantFrom('true', 'false', '0', '-5', '1e9', 'csv', 'xlsx', 'pdf'),
);
