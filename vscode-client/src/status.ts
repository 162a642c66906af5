// The packing verdict at a script's launches, as the status bar shows it. No `vscode` import.

import { RequestType } from 'vscode-languageserver-protocol';
import type { Range } from 'vscode-languageserver-protocol';

export type Verdict = 'ok' | 'leak' | 'corrupt' | 'mixed' | 'unknown' | 'off';

/** One launch command of the script and the gate combination it would run with. */
export interface LaunchSummary {
  range: Range;
  verdict: Verdict;
  /** e.g. "BMR=1 PACKED_DATA=1 ✓ padding-free", in the server's language setting. */
  label: string;
}

export interface LaunchSummariesParams {
  textDocument: { uri: string };
}

/** packgate's own request: the verdict at each launch of a document. */
export const LaunchSummariesRequest = new RequestType<LaunchSummariesParams, LaunchSummary[] | null, void>(
  'packgate/launchSummaries',
);

// Worst first: the status bar shows the worst launch of the file.
const SEVERITY: Verdict[] = ['corrupt', 'leak', 'mixed', 'unknown', 'off', 'ok'];

export type Translate = (message: string, ...args: Array<string | number>) => string;

export interface StatusView {
  text: string;
  tooltip: string;
  verdict: Verdict;
  /** `error`/`warning` pick the status bar item's background; undefined leaves it plain. */
  level?: 'error' | 'warning';
  /** The launch the item's click goes to. */
  range: Range;
}

/** What the status bar item shows for a document's launches; undefined hides it. */
export function statusView(summaries: readonly LaunchSummary[] | null | undefined, t: Translate): StatusView | undefined {
  if (!summaries || summaries.length === 0) {
    return undefined;
  }
  const known = summaries.filter((s) => SEVERITY.includes(s.verdict));
  if (known.length === 0) {
    return undefined;
  }
  const worst = known.reduce((a, b) => (SEVERITY.indexOf(b.verdict) < SEVERITY.indexOf(a.verdict) ? b : a));
  const lines = summaries.map((s) =>
    t('line {0}: {1}', s.range.start.line + 1, s.label || verdictText(s.verdict, t)),
  );
  return {
    text: verdictText(worst.verdict, t),
    tooltip: lines.join('\n'),
    verdict: worst.verdict,
    level: worst.verdict === 'leak' || worst.verdict === 'corrupt' ? 'error' : worst.verdict === 'mixed' ? 'warning' : undefined,
    range: worst.range,
  };
}

function verdictText(verdict: Verdict, t: Translate): string {
  switch (verdict) {
    case 'ok':
      return t('packing ✓');
    case 'leak':
      return t('packing: leak ✗');
    case 'corrupt':
      return t('packing: corrupt ✗');
    case 'mixed':
      return t('packing: depends on the path ⚠');
    case 'off':
      return t('packing off');
    case 'unknown':
      return t('packing: unknown');
  }
}
