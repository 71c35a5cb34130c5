import { z } from 'zod';

/**
 * Field shapes that several payloads share, defined once here and used by schemas.ts and
 * factors.ts (index.ts does not export them: the payload schemas built from them are the contract).
 */

/** A required text of at most `max` characters: `key` when missing, empty or longer. */
export const requiredText = (key: string, max = 100) => z.string({ message: key }).min(1, { message: key }).max(max);

/**
 * A required text, trimmed first: `key` when missing or blank; `tooLongKey` (or else `key`) when
 * longer than `max` characters.
 */
export const trimmedText = (key: string, max: number, tooLongKey?: string) =>
  z
    .string({ message: key })
    .trim()
    .min(1, { message: key })
    .max(max, tooLongKey === undefined ? undefined : { message: tooLongKey });

/** Where a sign-in goes on to: the authorization's ReturnUrl, or a path of the web app. */
const returnTarget = z.string().max(2000).nullish();
export const returnFields = { return_url: returnTarget, return_path: returnTarget };

/** A page of a longer list: how many match in all, this page's number (from 1) and the page size. */
export const pageFields = { total: z.number().int(), page: z.number().int(), page_size: z.number().int() };

/** The page a list query asks for (from 1). */
export const pageQuery = z.coerce.number().int().min(1).max(100000).default(1);
