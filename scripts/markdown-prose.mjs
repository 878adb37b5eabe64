// What the documents' tests read of a Markdown file: its prose, code blocks left out.

/**
 * A Markdown file's text with its fenced code blocks blanked, so `# comment` lines are no headings
 * and links in examples are not followed. A fence closes only on a line of its own character at
 * least as long (a ```` block may show a ``` one).
 */
export function prose(text) {
  let open;
  return text
    .split('\n')
    .map((line) => {
      const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (open === undefined) {
        if (fence) open = fence[1];
        return fence ? '' : line;
      }
      const [, marker = '', rest = ''] = fence ?? [];
      if (marker[0] === open[0] && marker.length >= open.length && rest.trim() === '')
        open = undefined;
      return '';
    })
    .join('\n');
}
