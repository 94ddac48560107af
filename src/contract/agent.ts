/** The agent kind's messages (CONTRACT "Further additions"): `steerTask`, and the refusals it answers. */

/** `steerTask` update: guidance that joins the agent's conversation before its next model call. */
export interface SteerTaskRequest {
  key: string;
  /** At most 8 KiB (UTF-8). */
  text: string;
  /** The running attempt's token; absent: whichever attempt runs now. */
  fencingToken?: number;
  requestId?: string;
  actor?: string;
}

/** The model call the steer joins (1 = the first). */
export interface SteerTaskVerdict {
  ok: true;
  turn: number;
}

export type SteerTaskRefusal =
  'not_found' | 'not_active' | 'stale_attempt' | 'not_an_agent' | 'value_too_large' | 'forbidden';
