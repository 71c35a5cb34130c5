import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import classes from './recovery-code-actions.module.css';

/** The recovery codes as a text file: a title line, a note, then one code a line. */
export function recoveryCodesText(codes: readonly string[], title: string, note: string): string {
  return [title, note, '', ...codes, ''].join('\n');
}

/** Saves the codes as recovery-codes.txt, through a link to a file made in the page. */
function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The recovery codes, printable on their own (the print stylesheet hides the rest of the page),
 * with the ways to keep them: copy, download as a .txt, print.
 */
export function PrintableRecoveryCodes({ codes, children }: { codes: readonly string[]; children: ReactNode }) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: 2000 });
  const text = recoveryCodesText(codes, t('authenticatorOnPhone.fileTitle'), t('authenticatorOnPhone.fileNote'));
  return (
    <>
      <div className={classes.printed}>
        <p className={classes.printTitle}>{t('authenticatorOnPhone.fileTitle')}</p>
        {children}
      </div>
      <Group gap="xs" wrap="wrap">
        <Button variant="default" size="xs" onClick={() => clipboard.copy(codes.join('\n'))}>
          {clipboard.copied ? t('authenticatorOnPhone.copied') : t('authenticatorOnPhone.copy')}
        </Button>
        <Button variant="default" size="xs" onClick={() => download(text)}>
          {t('authenticatorOnPhone.download')}
        </Button>
        <Button variant="default" size="xs" onClick={() => window.print()}>
          {t('authenticatorOnPhone.print')}
        </Button>
      </Group>
    </>
  );
}
