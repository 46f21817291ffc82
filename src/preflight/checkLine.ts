/** One line of `jupbot live check`: what was checked, whether it passed, what was found and, on a failure, what to do. */
export interface CheckLine {
  /** Short and stable: `key file`, `ops port`, `api area swap`, `strategy dca-jup`… (recorded in the audit log). */
  readonly check: string;
  readonly ok: boolean;
  readonly detail: string;
  /** What to do about a failure. */
  readonly fix?: string | undefined;
}

export const passed = (check: string, detail: string): CheckLine => ({ check, ok: true, detail });
export const failed = (check: string, detail: string, fix: string): CheckLine => ({ check, ok: false, detail, fix });

/** `ok      ops port: …` or `FAILED  funds: … → fund the wallet …`, one line. */
export function formatCheckLine(line: CheckLine): string {
  return line.ok ? `ok      ${line.check}: ${line.detail}` : `FAILED  ${line.check}: ${line.detail}; ${line.fix ?? ''}`.replace(/; $/, '');
}
