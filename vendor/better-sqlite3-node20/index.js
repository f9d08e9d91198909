// better-sqlite3 12, the line that loads on Node.js 20 (13 needs Node-API 10); see protocol/runtime/internals/sqlite.ts.
module.exports = require('better-sqlite3');
