/**
 * The worker's attempt gateway: how a task speaks to its run as its attempt. Each attempt this
 * worker runs gets a secret (`TEAMRUN_ATTEMPT_SECRET`) that only its processes hold; `teamrun send`,
 * `inbox` and `add-tasks` inside the task hand their request to this gateway over a Unix socket in
 * a directory only the worker's user can enter. The gateway fills in the attempt's identity,
 * redacts the request, and sends it with the worker's own client (its codec applies) along with a
 * one-time nonce; the run asks this worker, on its stop queue, to confirm the nonce before it takes
 * the request as the task's. The task never holds the codec key or a Temporal credential.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { ATTEMPT_WAITS } from '../../team/bounds';
import type { AttemptProof } from '../../contract';
import { retryUpdate } from '../../sdk/update-retry';
import type { LiveBudget } from '../executors/types';
import { JournalUnavailable, writeJournal, type JournalAccess } from './journal';
import { BUSY_RETRY_MS, asTask, busy, readBounded, refusalOf, writeLauncher } from './wire';
import { InFlightLimit } from '../../sdk/in-flight';
import { reserve, type GatewayAnswer } from './reserve';
import { DEFAULT_RUNS_PER_ATTEMPT, startRun, type StartRunAccess } from './start-run';
import { HashChain } from '../hash-chain';
import type { AttemptAsk, OpenedAttempt } from './opened';
import { RandomPool } from '../random-pool';

export type { GatewayAnswer };
export type { AttemptAsk, OpenedAttempt, StepsProof } from './opened';
import { PROOF_NONCE_TTL_MS, askAnchor, type ConfirmAttemptRequest, type ProvenMessage } from '../interface';
import type { AttemptIdentity, AttemptMessage } from '../interface';
import { Redactor, type Secret } from '../redact';
import { ProofSigner } from './signing';
import { PendingNonces } from './nonces';
import { GATEWAY_DIR_PREFIX } from './leftovers';

export const GATEWAY_LIMITS = {
  /** A request's JSON body (an addTasks request's tasks are at most MAX_SPAWN_BYTES of it). */
  requestBytes: 1024 * 1024,
  /** How long a nonce waits for its run to ask about it. */
  nonceTtlMs: PROOF_NONCE_TTL_MS,
  /** Nonces held at once; past it the oldest is forgotten (its run is then told no). */
  nonces: 4096,
  /** How long the gateway waits for the run's verdict (every wait of the run's answer nests inside it). */
  updateTimeoutMs: ATTEMPT_WAITS.verdictMs,
} as const;

/**
 * Executor kinds that never start a process of the task's nor speak to the gateway themselves: their attempts are
 * opened lazily (see `open`). Any other kind, a custom one included, gets its secret at once.
 */
export const GATEWAY_UNUSED_KINDS: ReadonlySet<string> = new Set(['noop', 'sleep', 'http', 'llm']);

/** What a task may send its run as itself; an extension goes through its live reservation (`/reserve`) instead. */
const MESSAGES: ReadonlySet<string> = new Set<AttemptMessage>(['sendMessage', 'readInbox', 'addTasks']);
const RESERVE = 'reserve';
const START_RUN = 'startRun';

interface OpenAttempt {
  identity: AttemptIdentity;
  redactor: Redactor;
  /** The attempt's live reservation, which `teamrun reserve` inside the task asks (absent: nothing to ask). */
  budget?: LiveBudget;
  /** An agent attempt's journal (src/agent), on its run's task queue; absent: no journal. */
  journal?: JournalAccess;
  /** The hash chain its step signals carry (`agentSteps`), drawn at its first step. */
  steps?: HashChain;
  /** Runs it started (`/startRun`, start-run.ts). */
  started?: { count: number };
}

export interface GatewayOptions {
  /** The worker's own client: its data converter (codec) encodes what the gateway sends. */
  client: Client;
  /** The worker's stop queue, where its run asks for confirmations. */
  queue: string;
  /** The worker's secrets; each attempt's redactor adds the attempt's own. */
  secrets: ReadonlyArray<Secret>;
  /** The worker's task queue (a run an attempt starts goes there unless it names another) and its bound on them. */
  runs?: { taskQueue: string; maxPerAttempt: number };
}

type Amount = { tokens: number; usd: number };
type Body = Record<string, unknown>;

export class AttemptGateway {
  private readonly attempts = new Map<string, OpenAttempt>();
  private readonly nonces = new PendingNonces(GATEWAY_LIMITS.nonces);
  /** This worker's requests with each run at once (the tasks' own: extensions, messages, additions). */
  private readonly toRuns = new InFlightLimit();
  /** Every attempt registered gets a secret: drawn from a pool, not one system call each. */
  private readonly secrets = new RandomPool(32);
  /** What an attempt not (yet) registered reports through: the worker's secrets only. */
  private readonly workerRedactor: Redactor;
  /** Signs what this worker's attempts answer (signing.ts). */
  private readonly signer = new ProofSigner();

  private constructor(
    private readonly options: GatewayOptions,
    /** Its private directory: the socket, the launcher, and the inputs of the attempts it runs (shell-env.ts). */
    readonly dir: string,
    readonly socket: string,
    /** Holds the `teamrun` launcher of this worker's own CLI; null when the CLI is not beside the code. */
    readonly binDir: string | null,
    private readonly server: http.Server,
  ) {
    this.workerRedactor = new Redactor(options.secrets);
  }

  /** Listens in a new private directory under the system's temporary directory. */
  static async start(options: GatewayOptions): Promise<AttemptGateway> {
    const dir = mkdtempSync(path.join(os.tmpdir(), GATEWAY_DIR_PREFIX));
    chmodSync(dir, 0o700);
    const socket = path.join(dir, 'gateway.sock');
    const server = http.createServer();
    const gateway = new AttemptGateway(options, dir, socket, writeLauncher(dir), server);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => void gateway.serve(req, res));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socket, resolve);
      });
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return gateway;
  }

  /**
   * Registers an attempt as it starts: its secret, and its redactor (the worker's secrets and
   * this one). `close` drops it when the attempt ends; its secret then opens nothing. `lazy`: an
   * attempt whose executor never hands its processes the secret (noop, sleep, http, llm) is
   * registered only if it asks its run something as itself (a budget extension), and until then
   * reports through the worker's redactor: no secret, digest or redactor of its own per attempt.
   */
  open(identity: AttemptIdentity, options: { journalQueue?: string; lazy?: boolean } = {}): OpenedAttempt {
    let registered: { id: string; secret: string; attempt: OpenAttempt } | null = null;
    let budget: LiveBudget | undefined;
    const register = () => {
      if (registered) return registered;
      const secret = this.secrets.next().toString('base64url');
      const id = digest(secret);
      const redactor = new Redactor([...this.options.secrets, { name: 'TEAMRUN_ATTEMPT_SECRET', value: secret }]);
      const attempt: OpenAttempt = { identity, redactor, ...(budget ? { budget } : {}) };
      if (options.journalQueue)
        attempt.journal = { identity, redactor, queue: options.journalQueue, writing: Promise.resolve() };
      this.attempts.set(id, attempt);
      registered = { id, secret, attempt };
      return registered;
    };
    if (!options.lazy) register();
    // A message sent as this attempt, through the same door as its processes' (`teamrun send`): proven, confirmed.
    const ask: AttemptAsk = async (message, body) => {
      const { id, attempt } = register();
      try {
        return { ok: true, answer: await this.forward(id, attempt, message, body) };
      } catch (err) {
        const refusal = refusalOf(err, message);
        return { ok: false, code: refusal.code, message: attempt.redactor.text(refusal.message) };
      }
    };
    const { socket, binDir, workerRedactor } = this;
    return {
      lazy: options.lazy === true,
      get access() {
        return { socket, secret: register().secret, binDir };
      },
      get redactor() {
        return registered?.attempt.redactor ?? workerRedactor;
      },
      close: () => {
        if (registered) this.attempts.delete(registered.id);
      },
      attachBudget: (attached) => {
        budget = attached;
        if (registered) registered.attempt.budget = attached;
      },
      stepsProof: () => {
        const { id, attempt } = register();
        if (attempt.steps) return { link: attempt.steps.next() };
        attempt.steps = new HashChain();
        const { anchor } = attempt.steps;
        return { anchor, attempt: this.prove(id, identity, 'agentSteps', anchor) };
      },
      // Drawn as the attempt ends, and confirmed after it: the attempt need not be registered, nor still open.
      completionProof: (digest) => this.signer.signed(this.prove('', identity, 'complete', digest), identity, digest),
      extend: async (extension) => {
        const answer = await ask('extendReservation', extension);
        return answer.ok ? { ok: true, granted: (answer.answer as { granted: Amount }).granted } : answer;
      },
      ask,
    };
  }

  /**
   * The proof a steer carries to an agent's journal (src/activities/agent-activities.ts): the run
   * checked it (its governance) and handed it to this worker's `steerAgent`; the journal asks this
   * worker before it takes the text, bound by its SHA-256.
   */
  proveSteer(target: { workflowId: string; key: string; fencingToken: number }, textDigest: string): AttemptProof {
    const identity = { ...target, taskKey: target.key, attempt: 0, leaseId: '', holder: '' };
    return this.prove('', identity, 'steer', textDigest);
  }

  /**
   * The proof a ledger update carries (src/ledger/doors.ts) for a run: the ledger asks this worker before it records
   * it, bound by the update's name and its request's digest, or takes it on this worker's signature (signed-doors.ts).
   */
  proveLedger(ledgerWorkflowId: string, call: string, digest: string): AttemptProof {
    const identity = {
      workflowId: ledgerWorkflowId,
      taskKey: call,
      fencingToken: 0,
      attempt: 0,
      leaseId: '',
      holder: '',
    };
    return this.signer.signedLedger(this.prove('', identity, 'ledger', digest), ledgerWorkflowId, call, digest);
  }

  /** The run's question: did this gateway send that request, for an attempt still running? Once per nonce. */
  confirm(request: ConfirmAttemptRequest): boolean {
    return this.nonces.confirm(request, (attempt) => this.attempts.has(attempt), this.signer.publicKey);
  }

  async close(): Promise<void> {
    this.attempts.clear();
    this.nonces.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const reply = (status: number, answer: GatewayAnswer) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    };
    const refuse = (status: number, code: string, message: string) => {
      req.resume();
      reply(status, { ok: false, code, message });
    };
    const message = (req.url ?? '').slice(1);
    if (req.method !== 'POST' || !(MESSAGES.has(message) || [RESERVE, START_RUN, 'journal'].includes(message)))
      return refuse(
        404,
        'TEAM_ATTEMPT_GATEWAY_NOT_FOUND',
        'the gateway takes POST /sendMessage, /readInbox, /addTasks, /reserve, /startRun, /journal',
      );
    const bearer = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(req.headers.authorization ?? '')?.[1];
    const id = bearer === undefined ? undefined : digest(bearer);
    const attempt = id === undefined ? undefined : this.attempts.get(id);
    if (!attempt || id === undefined) {
      return refuse(
        401,
        'TEAM_ATTEMPT_UNKNOWN',
        'no attempt running on this worker holds this secret (the attempt ended, or TEAMRUN_ATTEMPT_SECRET is wrong)',
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBounded(req, GATEWAY_LIMITS.requestBytes));
    } catch (err) {
      const tooLarge = err instanceof RangeError;
      return refuse(
        tooLarge ? 413 : 400,
        tooLarge ? 'TEAM_ATTEMPT_REQUEST_TOO_LARGE' : 'TEAM_ATTEMPT_REQUEST_INVALID',
        tooLarge ? `the request is over ${GATEWAY_LIMITS.requestBytes} bytes` : 'the request is not JSON',
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refuse(400, 'TEAM_ATTEMPT_REQUEST_INVALID', 'the request is not a JSON object');
    if (message === RESERVE) return reply(...(await reserve(attempt, body)));
    if (message === START_RUN) return reply(...(await startRun(this.runAccess(id, attempt), body)));
    try {
      const answer =
        message === 'journal'
          ? await this.journal(id, attempt, body as Record<string, unknown>)
          : await this.forward(id, attempt, message as AttemptMessage, body as Record<string, unknown>);
      reply(200, { ok: true, answer });
    } catch (err) {
      const refusal = refusalOf(err, message);
      reply(refusal.status, { ok: false, code: refusal.code, message: attempt.redactor.text(refusal.message) });
    }
  }

  /** The task's request, sent as its attempt (`send`: identity filled in, redacted, with a nonce to confirm). */
  private async forward(id: string, attempt: OpenAttempt, message: AttemptMessage, body: Body) {
    // The retries of an update refused at a handover, or while its run confirms other requests (`busy`: a new
    // worker's first ones, until one is confirmed), share the one deadline; each busy retry has a new nonce.
    const deadline = Date.now() + GATEWAY_LIMITS.updateTimeoutMs;
    // A few at a time per run (in-flight.ts); the wait for a place counts against the same deadline.
    return this.toRuns.run(attempt.identity.workflowId, deadline, message, () =>
      this.send(id, attempt, message, body, deadline),
    );
  }

  private async send(id: string, attempt: OpenAttempt, message: AttemptMessage, body: Body, deadline: number) {
    const { client } = this.options;
    const { identity, redactor } = attempt;
    const sent = redactor.deep(asTask(message, identity, body)) as object;
    // Signed (signing.ts), bound to the request as sent: a run that confirmed this worker's key takes it at once.
    const anchor = askAnchor(message, sent);
    for (;;) {
      const proof = this.signer.signedAsk(this.prove(id, identity, message, anchor), identity, message, anchor);
      const request = { ...sent, attempt: proof };
      try {
        return await client.withDeadline(deadline, () =>
          retryUpdate((updateId) =>
            client.workflow.getHandle(identity.workflowId).executeUpdate(message, { args: [request], updateId }),
          ),
        );
      } catch (err) {
        if (!busy(err) || Date.now() + BUSY_RETRY_MS >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS / 2 + Math.random() * BUSY_RETRY_MS));
      } finally {
        this.nonces.forget(proof.nonce);
      }
    }
  }

  /** What `/startRun` needs of this worker and of the attempt (start-run.ts). */
  private runAccess(id: string, attempt: OpenAttempt): StartRunAccess {
    const { client, runs } = this.options;
    return {
      client,
      identity: attempt.identity,
      taskQueue: runs?.taskQueue ?? 'teamrun',
      started: (attempt.started ??= { count: 0 }),
      limit: runs?.maxPerAttempt ?? DEFAULT_RUNS_PER_ATTEMPT,
      link: (body) => this.forward(id, attempt, 'linkRun', body),
      redact: (plan) => attempt.redactor.deep(plan),
    };
  }

  /** A one-time nonce this gateway confirms (once) for this attempt, this message and, if given, this anchor. */
  private prove(id: string, identity: AttemptIdentity, message: ProvenMessage, anchor?: string): AttemptProof {
    const nonce = randomBytes(24).toString('base64url');
    this.nonces.remember(nonce, {
      attempt: id,
      workflowId: identity.workflowId,
      key: identity.taskKey,
      fencingToken: identity.fencingToken,
      message,
      ...(anchor === undefined ? {} : { anchor }),
      expires: Date.now() + GATEWAY_LIMITS.nonceTtlMs,
    });
    return { queue: this.options.queue, nonce };
  }

  /** An agent attempt's step in its task's journal, proven as this attempt's (journal.ts). */
  private journal(id: string, { journal, identity }: OpenAttempt, body: Record<string, unknown>) {
    if (!journal) throw new JournalUnavailable('only an agent attempt has a journal');
    const prove = (message: ProvenMessage, anchor: string) => this.prove(id, identity, message, anchor);
    return writeJournal(
      { client: this.options.client, prove, deadlineMs: GATEWAY_LIMITS.updateTimeoutMs },
      journal,
      body,
    );
  }
}

const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');
