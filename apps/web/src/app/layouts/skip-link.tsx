import { useTranslation } from 'react-i18next';
import classes from './skip-link.module.css';

/** The skip link to the page's main content (the element with id "main"). */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main"
      className={classes.skip}
      onClick={(e) => {
        e.preventDefault();
        const main = document.getElementById('main');
        const target = main?.querySelector<HTMLElement>('h1') ?? main;
        if (!target) return;
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
      }}
    >
      {t('skip_to_content')}
    </a>
  );
}
