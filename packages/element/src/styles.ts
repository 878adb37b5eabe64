// Plain text, compact on purpose: Lit does not minify CSS and the element has a size budget. The status area
// (the only div) fills the element while it has something to say and takes no room otherwise.
export const styles = `
:host{display:flex;flex-flow:column;height:var(--form-embed-height,600px)}
iframe,div:not(:empty){flex:1;border:0}
div{display:grid;place-content:center;place-items:center;gap:1em;text-align:center}
button{font:inherit}`;
