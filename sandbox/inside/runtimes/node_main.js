// The V8 start-up snapshot that every JavaScript and TypeScript test process starts from (build.sh
// builds one per heap size: `node --max-old-space-size=N --snapshot-blob node-N.blob --build-snapshot`).
//
// Debian's Node.js is built without its own start-up snapshot and code cache, so a cold `node main.js`
// creates its whole JavaScript environment from source at every start; `node --snapshot-blob
// node-N.blob --max-old-space-size=N main.js` deserializes that environment instead, then runs this
// file's main function: it runs the file named first on the command line (the program, or the call
// driver program/driver.js) as `node FILE` would, as the process's main CommonJS module
// (`require.main === module`, `process.argv[1]` its absolute path). Nothing of a program is in the
// snapshot, and each test is still a fresh process: what one test's process does to its globals is gone
// with it. This file runs in the program's process and holds nothing a verdict depends on.
'use strict';

// Required here, while the snapshot is built (Node.js warns there that it does not vouch for `module` in
// a user snapshot; required at run time instead, the warning would reach each program's stderr). It is
// node's own CommonJS loader, which node's start-up re-initialises after deserializing, as it does
// without a snapshot (search paths, runMain).
const Module = require('module');
const path = require('path');

require('v8').startupSnapshot.setDeserializeMainFunction(() => {
  // as node's own run_main_module: the main module is named by its absolute path
  process.argv[1] = path.resolve(process.argv[1]);
  Module.runMain();
});
