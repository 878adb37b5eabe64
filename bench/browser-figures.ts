// The bench's in-browser figures, from the timings and cycles of `browser-timings.ts`.
import type { ConnectTimings, HeapRounds } from './browser-timings.js';
import type { Figure } from './figure.js';
import { summarize } from './summary.js';

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The mint figures: requests per connection, connect against fetch and floor, remint. */
export function mintFigures(
  perConnection: number[],
  { connect, fetchMint, floor }: ConnectTimings,
  remint: number[],
): Figure[] {
  const perPair = (times: number[], over: number[]) =>
    summarize(times.map((time, i) => time / (over[i] as number)));
  return [
    {
      id: 'browser.requestsPerMint',
      label: 'Browser requests to the mint path per element connection',
      unit: 'requests',
      value: summarize(perConnection),
      budget: { kind: 'exact', value: 1 },
    },
    {
      id: 'browser.connectToSrc',
      label: 'Connect <form-embed> to iframe src set',
      unit: 'ms',
      value: summarize(connect),
    },
    {
      id: 'browser.plainFetch',
      label: 'Plain fetch of the same mint endpoint',
      unit: 'ms',
      value: summarize(fetchMint),
    },
    {
      id: 'browser.frameFloor',
      label: 'Frame floor: box, plain fetch, iframe with the embedUrl',
      unit: 'ms',
      value: summarize(floor),
    },
    {
      id: 'browser.connectOverFetch',
      label: 'Connect-to-src / plain fetch (per run)',
      unit: 'ratio',
      value: perPair(connect, fetchMint),
    },
    {
      id: 'browser.floorOverFetch',
      label: 'Frame floor / plain fetch (per run)',
      unit: 'ratio',
      value: perPair(floor, fetchMint),
    },
    {
      id: 'browser.connectOverFloor',
      label: 'Connect-to-src / frame floor (per run)',
      unit: 'ratio',
      value: perPair(connect, floor),
    },
    {
      id: 'browser.expiredToNewFrame',
      label: '`expired` message to new iframe src',
      unit: 'ms',
      value: summarize(remint),
    },
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
