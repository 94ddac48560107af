"use strict";
/**
 * The run's event log as the contract states it: event types, the `events` query's page, and the
 * ISO twins every timestamp of a query answer carries. Shapes only; src/team/events.ts keeps the
 * log and src/workflows/iso-times.ts adds the twins.
 */
Object.defineProperty(exports, "__esModule", { value: true });
