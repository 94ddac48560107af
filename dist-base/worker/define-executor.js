"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defineExecutor = void 0;
// The definition lives beside the built-in kinds made with it; `teamrun/worker` offers it from here.
var define_1 = require("../activities/executors/define");
Object.defineProperty(exports, "defineExecutor", { enumerable: true, get: function () { return define_1.defineExecutor; } });
