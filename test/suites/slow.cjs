// The slow suite's mocha config: test/suites/index.cjs.
module.exports = require("./index.cjs").suites.slow;
