"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CodecError = void 0;
const errors_1 = require("../errors");
/** A codec problem: which key, which file or variable, and what to do about it. */
class CodecError extends errors_1.TeamrunError {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = 'CodecError';
    }
}
exports.CodecError = CodecError;
