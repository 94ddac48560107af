"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadPlanFile = loadPlanFile;
const node_fs_1 = require("node:fs");
const yaml_1 = require("yaml");
const validate_1 = require("./validate");
/**
 * Reads a plan file (YAML or JSON; JSON is YAML) and validates it. JSON is read as JSON first:
 * the YAML parser takes seconds on a plan of a megabyte.
 */
function loadPlanFile(file, options = {}) {
    let raw;
    try {
        const text = (0, node_fs_1.readFileSync)(file, 'utf8');
        raw = /^\s*[{[]/.test(text) ? parseJsonOrYaml(text) : (0, yaml_1.parse)(text);
    }
    catch (err) {
        return {
            ok: false,
            problems: [{ path: file, code: 'unreadable', message: err.message.split('\n')[0] }],
        };
    }
    return { ...(0, validate_1.validatePlan)(raw, options), raw };
}
function parseJsonOrYaml(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return (0, yaml_1.parse)(text);
    }
}
