"use strict";
/** The agent kind's messages (CONTRACT "Further additions"): `steerTask`, and the refusals it answers. */
Object.defineProperty(exports, "__esModule", { value: true });
