// The demo's pages a person opens, each with the name the pages' header links give it.
export const demoPages = [
  ['/', 'Console'],
  ['/several.html', 'Several embeds'],
  ['/lazy.html', 'Lazy embed'],
  ['/hostile.html', 'Hostile frame'],
] as const;
