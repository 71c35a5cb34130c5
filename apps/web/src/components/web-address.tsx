import { Fragment } from 'react';
import { isWebAddress, urlParts } from '@/lib/url-parts';

/**
 * A value as text; a web address with a line-break opportunity (<wbr>) after each of its separators
 * (lib/url-parts.ts), so that on a narrow screen it wraps between its parts, not inside a word.
 */
export function WebAddress({ value }: { value: string }) {
  if (!isWebAddress(value)) return value;
  return urlParts(value).map((part, i) => (
    <Fragment key={i}>
      {part}
      <wbr />
    </Fragment>
  ));
}
