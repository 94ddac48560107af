import type { Command } from 'commander';
import { registerBudget } from './budget';
import { registerCodecServer } from './codec-server';
import { registerControl } from './control';
import { registerDemo } from './demo';
import { registerDev } from './dev';
import { registerDoctor } from './doctor';
import { registerInspect } from './inspect';
import { registerLedger } from './ledger';
import { registerObserve } from './observe';
import { registerMailbox } from './mailbox';
import { registerSpawn } from './spawn';
import { registerStart } from './start';
import { registerWorker } from './worker';
import { registerFence } from './fence';
import { registerQueue } from './queue';
import { registerReport } from './report';
import { registerWatch } from './watch';
import { registerSchedule } from './schedule';
import { registerSchema } from './schema';
import { registerTemporalPath } from './temporal-path';
import { registerValidate } from './validate';

/** Each command group lives in its own module and registers itself here. */
export function registerCommands(program: Command): void {
  registerDemo(program);
  registerDev(program);
  registerWorker(program);
  registerStart(program);
  registerInspect(program);
  registerControl(program);
  registerMailbox(program);
  registerSpawn(program);
  registerValidate(program);
  registerTemporalPath(program);
  registerFence(program);
  registerSchedule(program);
  registerQueue(program);
  registerReport(program);
  registerObserve(program);
  registerWatch(program);
  registerLedger(program);
  registerBudget(program);
  registerCodecServer(program);
  registerDoctor(program);
  registerSchema(program);
}
