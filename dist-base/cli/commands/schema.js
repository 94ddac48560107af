"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerSchema = registerSchema;
const json_schema_1 = require("../../plan/json-schema");
function registerSchema(program) {
    program
        .command('schema')
        .description("print the plan's JSON Schema (for editors: `# yaml-language-server: " +
        '$schema=...` in a *.team.yaml; see docs/plans.md)')
        .action(() => {
        process.stdout.write(`${JSON.stringify((0, json_schema_1.planJsonSchema)(), null, 2)}\n`);
    });
}
