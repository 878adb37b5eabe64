// Preloaded (NODE_OPTIONS=--require) into each Node process setup 13 starts, its children
// included: appends one JSON line, {script, version}, to the file NODE_VERSION_LOG names, so that
// the test knows which Node ran each of them.
require('node:fs').appendFileSync(
  process.env.NODE_VERSION_LOG,
  `${JSON.stringify({ script: process.argv[1], version: process.version })}\n`,
);
