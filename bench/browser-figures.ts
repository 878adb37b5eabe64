// The bench's in-browser figures, from the timings and cycles of `browser-timings.ts`.
import type { ConnectTimings, HeapRounds } from './browser-timings.js';
import type { Figure } from './figure.js';
import { summarize } from './summary.js';

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** A row of milliseconds. */
const msRow = (id: string, label: string, times: number[]): Figure => ({
  id,
  label,
  unit: 'ms',
  value: summarize(times),
});

/** A row of ratios, run by run. */
const ratioRow = (id: string, label: string, times: number[], over: number[]): Figure => ({
  id,
  label,
  unit: 'ratio',
  value: summarize(times.map((time, i) => time / (over[i] as number))),
});

/** The mint figures: requests per connection, connect against fetch and floor, remint. */
export function mintFigures(
  perConnection: number[],
  { connect, fetchMint, floor }: ConnectTimings,
  remint: number[],
): Figure[] {
  return [
    {
      id: 'browser.requestsPerMint',
      label: 'Browser requests to the mint path per element connection',
      unit: 'requests',
      value: summarize(perConnection),
      budget: { kind: 'exact', value: 1 },
    },
    msRow('browser.connectToSrc', 'Connect <form-embed> to iframe src set', connect),
    msRow('browser.plainFetch', 'Plain fetch of the same mint endpoint', fetchMint),
    msRow('browser.frameFloor', 'Frame floor: box, plain fetch, iframe with the embedUrl', floor),
    {
      ...ratioRow(
        'browser.connectOverFetch',
        'Connect-to-src / plain fetch (per run)',
        connect,
        fetchMint,
      ),
      budget: { kind: 'max', value: 1.1 },
    },
    ratioRow('browser.floorOverFetch', 'Frame floor / plain fetch (per run)', floor, fetchMint),
    ratioRow('browser.connectOverFloor', 'Connect-to-src / frame floor (per run)', connect, floor),
    msRow('browser.expiredToNewFrame', '`expired` message to new iframe src', remint),
  ];
}

/** The heap and window-listener figures of the connect/disconnect cycles. */
export function heapFigures(
  heap: HeapRounds,
  runs: { cycles: number; cycleRounds: number },
): Figure[] {
  const rounds = `${runs.cycleRounds} rounds of ${runs.cycles}`;
  return [
    {
      id: 'browser.heapBefore',
      label: 'JS heap after GC, before the cycles',
      unit: 'KB',
      value: summarize([kb(heap.heapBefore)]),
    },
    {
      id: 'browser.heapAfter',
      label: `JS heap after GC, after ${rounds} cycles`,
      unit: 'KB',
      value: summarize([kb(heap.heapAfter)]),
    },
    {
      id: 'browser.heapGrowthPerRound',
      label: `Heap growth per ${runs.cycles} connect/disconnect cycles`,
      unit: 'KB',
      value: summarize(heap.growth.map(kb)),
    },
    {
      id: 'browser.windowListeners',
      label: `Window listeners after ${rounds} cycles`,
      note: `${heap.listenersBefore} before the cycles (the page's own), ${heap.listenersConnected} with one element connected`,
      unit: 'listeners',
      value: summarize([heap.listenersAfter]),
      budget: { kind: 'exact', value: heap.listenersBefore },
    },
  ];
}
