"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerTemporalPath = registerTemporalPath;
const binary_1 = require("../../devserver/binary");
function registerTemporalPath(program) {
    program
        .command('temporal-path')
        .description('print the path of the temporal CLI teamrun uses, installing it into .teamrun/ if needed')
        .action(() => {
        const binary = (0, binary_1.findTemporalBinary)();
        process.stdout.write(`${binary}\n${(0, binary_1.temporalVersion)(binary)}\n`);
    });
}
