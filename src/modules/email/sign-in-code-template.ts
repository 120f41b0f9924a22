/**
 * The sign-in code email, in the reader's language (catalog `email.sign_in_code.*`,
 * docs/languages.md): the code in the subject and the body, how long it lasts, and what to do when
 * it was not you.
 */
import { htmlTranslator, translator } from '../../lib/i18n/index.js';
import { emailShownLanguage, layout } from './layout.js';
import type { Rendered } from './templates.js';

export function signInCodeTemplate(v: {
  code: string;
  expires_minutes: number;
  name?: string | null;
  lang?: string;
}): Rendered {
  const lang = emailShownLanguage('sign_in_code', v.lang);
  const t = translator(lang);
  const th = htmlTranslator(t);
  const hello = (tr: typeof t) =>
    v.name ? tr('email.sign_in_code.hello', { name: v.name }) : tr('email.sign_in_code.hello_anonymous');
  const vars = { code: v.code, minutes: v.expires_minutes };
  return {
    subject: t('email.sign_in_code.subject', { code: v.code }),
    text: `${hello(t)}\n\n${t('email.sign_in_code.code', vars)}\n\n${t('email.sign_in_code.ignore')}\n`,
    html: layout(
      t('email.sign_in_code.title'),
      [hello(th), th('email.sign_in_code.code_html', vars), th('email.sign_in_code.ignore')],
      undefined,
      lang,
    ),
  };
}
