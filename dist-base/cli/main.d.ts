#!/usr/bin/env node
import { Command } from 'commander';
import { version } from './version';
export { version };
export declare function buildProgram(only?: string): Command;
export declare function main(argv?: string[]): Promise<void>;
