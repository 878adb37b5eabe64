import { css } from '@lit/reactive-element';

// Compact on purpose: Lit does not minify CSS and the element has a size budget.
export const styles = css`
:host{display:block;height:var(--form-embed-height,600px)}
iframe{display:block;width:100%;height:100%;border:0}
[part=status]{height:100%;display:grid;place-content:center;gap:1em;text-align:center}
[part=status]:empty{height:0}
button{justify-self:center;font:inherit;padding:.3em 1em}`;
