'use strict';
// What the bin/ launchers run: a compiled build named by VIGIL_BUILD_DIR (dist/'s layout; the test
// suite compiles one per run), else the TypeScript source in a development checkout (tsx present),
// else the compiled build in dist/.
const path = require('node:path');

/** The module at `entry` (from the project root, without extension, e.g. `src/cli/vigil`). */
module.exports = function loadEntry(entry) {
  const build = process.env.VIGIL_BUILD_DIR;
  if (build) return require(path.join(path.resolve(build), `${entry}.js`));
  try {
    require.resolve('tsx/cjs');
    require('tsx/cjs');
    return require(path.join(__dirname, '..', `${entry}.ts`));
  } catch (err) {
    if (err && err.code !== 'MODULE_NOT_FOUND') throw err;
    return require(path.join(__dirname, '..', 'dist', `${entry}.js`));
  }
};
