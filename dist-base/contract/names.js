"use strict";
/**
 * The contract's fixed names as types: the workflow and activity types, the search attributes
 * and their status keywords, and the failure types an attempt or a run can end with. The values
 * live beside the code that uses them (src/workflows, src/activities) and are checked against these.
 */
Object.defineProperty(exports, "__esModule", { value: true });
