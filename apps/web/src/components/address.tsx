import { Fragment } from 'react';
import classes from './address.module.css';

/**
 * An e-mail address that wraps only after its '@' and before its dots: each part between those
 * points stays on one line (so no break at a hyphen or inside a word either).
 */
export function Address({ value }: { value: string }) {
  const parts = value.split(/(?=\.)|(?<=@)/);
  return (
    <span className={classes.address} data-address>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <span className={classes.addressPart}>{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
