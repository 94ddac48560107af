"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AgentGateway = exports.GatewayRefusal = void 0;
const gateway_request_1 = require("../../gateway-request");
/** A refusal from the gateway or the run, with its stable code. */
class GatewayRefusal extends Error {
    code;
    constructor(code, message) {
        super(`${code}: ${message}`);
        this.code = code;
        this.name = 'GatewayRefusal';
    }
}
exports.GatewayRefusal = GatewayRefusal;
class AgentGateway {
    access;
    signal;
    constructor(access, signal) {
        this.access = access;
        this.signal = signal;
    }
    journal(request) {
        return this.post('journal', request);
    }
    post(path, body) {
        return (0, gateway_request_1.postToGateway)(this.access, path, body, this.signal).then((text) => {
            const answer = JSON.parse(text);
            if (answer.ok)
                return answer.answer;
            throw new GatewayRefusal(answer.code, answer.message);
        });
    }
}
exports.AgentGateway = AgentGateway;
