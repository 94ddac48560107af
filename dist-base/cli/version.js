"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.version = version;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
/** The package's version (package.json is two levels up from src/cli and from dist/cli alike). */
function version() {
    return JSON.parse((0, node_fs_1.readFileSync)(node_path_1.default.join(__dirname, '..', '..', 'package.json'), 'utf8'))
        .version;
}
