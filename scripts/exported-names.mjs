// The names a package's README must name: what a TypeScript entry module exports, read from its
// source (values and types alike), for the README export tests of the packages.

/** The names a module exports: its `export {…}` lists (`type X` as `X`) and exported declarations. */
export function exportedNames(source) {
  const names = [];
  for (const [, list] of source.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const item of list.split(',')) {
      const name = item.trim().replace(/^type\s+/, '');
      if (name) names.push(name);
    }
  }
  for (const [, name] of source.matchAll(
    /^export (?:const|function|class|interface|type) (\w+)/gm,
  )) {
    names.push(name);
  }
  return names;
}

/** The names a Markdown text writes as code on their own: `` `startSandbox` ``, not `` `f(x)` ``. */
export function namesInCode(markdown) {
  return new Set([...markdown.matchAll(/`(\w+)`/g)].map((match) => match[1]));
}
