// The header shared by the extra demo pages.
import { keepInLinks } from './console-address.js';
import { demoPages } from './pages.js';

/** The page's header, its links carrying the page's query (the console's language and form). */
export function renderHeader(title: string): void {
  const header = document.createElement('header');
  const h1 = document.createElement('h1');
  h1.textContent = `form-embed · ${title}`;
  const nav = document.createElement('nav');
  nav.setAttribute('aria-label', 'Demo pages');
  for (const [href, label] of demoPages) {
    const link = document.createElement('a');
    link.href = href;
    link.textContent = label;
    if (href === location.pathname) link.setAttribute('aria-current', 'page');
    nav.append(link);
  }
  header.append(h1, nav);
  document.body.prepend(header);
  keepInLinks();
}
