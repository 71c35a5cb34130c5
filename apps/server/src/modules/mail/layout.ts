import { escapeHtml } from '../../http/html.js';

/**
 * The one HTML layout of every e-mail (invitations, resets, security notices): a white card with
 * the signature as its heading, then the message's blocks. Each block helper escapes its text.
 */

/** A paragraph of body text. */
export function paragraph(text: string): string {
  return `<p style="margin:0 0 16px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1a1b1e">${escapeHtml(text)}</p>`;
}

/** The message's one action, as a button. */
export function button(label: string, link: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font:bold 16px Arial,Helvetica,sans-serif">${escapeHtml(label)}</a></p>`;
}

/** The button's link written out, for mail programs that do not show the button. */
export function linkFallback(text: string, link: string): string {
  const href = escapeHtml(link);
  return `<p style="margin:0 0 8px;font:13px/1.5 Arial,Helvetica,sans-serif;color:#495057">${escapeHtml(text)}</p>
<p style="margin:0;font:13px/1.5 Arial,Helvetica,sans-serif;word-break:break-all"><a href="${href}" style="color:#1864ab">${href}</a></p>`;
}

/** A labelled link on one line ("Sign in: https://…"). */
export function labelledLink(label: string, link: string): string {
  const href = escapeHtml(link);
  return `<p style="margin:0;font:14px/1.5 Arial,Helvetica,sans-serif">${escapeHtml(label)} <a href="${href}" style="color:#1864ab">${href}</a></p>`;
}

/** The whole HTML document of an e-mail in `language`, headed by `signature`. */
export function emailHtml(language: string, signature: string, blocks: string[]): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(signature)}</title></head>
<body style="margin:0;padding:24px;background:#f1f3f5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font:bold 20px Arial,Helvetica,sans-serif;color:#1864ab">${escapeHtml(signature)}</p>
${blocks.join('\n')}
</td></tr></table>
</td></tr></table>
</body></html>`;
}

/** Someone else's words, quoted as they wrote them (line breaks kept). */
export function quotation(text: string): string {
  return `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #ced4da;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1a1b1e;white-space:pre-wrap">${escapeHtml(text)}</blockquote>`;
}
