"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.utf8Bytes = utf8Bytes;
exports.jsonBytes = jsonBytes;
/** UTF-8 length of a string, without Node's Buffer: workflow code uses it too. */
function utf8Bytes(text) {
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x80)
            bytes += 1;
        else if (c < 0x800)
            bytes += 2;
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
            bytes += 4;
            i += 1;
        }
        else
            bytes += 3;
    }
    return bytes;
}
/** Size of a value as JSON, in bytes: what it weighs in a Temporal payload. */
function jsonBytes(value) {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : utf8Bytes(json);
}
