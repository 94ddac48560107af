// Preloaded with `node --require` into a teamrun process: at exit it writes the modules the
// process loaded (require.cache) to $TEAMRUN_LOADED_MODULES, for tests of what a setting loads.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.TEAMRUN_LOADED_MODULES, JSON.stringify(Object.keys(require.cache)));
});
