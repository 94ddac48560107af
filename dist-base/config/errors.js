"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = void 0;
const errors_1 = require("../errors");
/** A config file, profile or connection setting that cannot be used; the message says which and where. */
class ConfigError extends errors_1.TeamrunError {
    code = 'InvalidConfig';
}
exports.ConfigError = ConfigError;
