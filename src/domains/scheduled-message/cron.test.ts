// Tests schedule time math on fixed instants: cron fields, IANA zones, and DST in two zones (America/New_York, Europe/Berlin).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkZone, instantOf, nextFire, parseCron } from './cron.js';

const Z = (s: string) => Date.parse(s);
/** Every fire strictly after `from`, up to `until`. */
function fires(expr: string, zone: string, from: string, until: string): string[] {
  const c = parseCron(expr);
  const out: string[] = [];
  for (let t = Z(from); ; ) {
    const n = nextFire(c, zone, t);
    if (n === undefined || n > Z(until)) return out;
    out.push(new Date(n).toISOString());
    t = n;
  }
}

test('cron fields parse with ranges, steps and lists; bad fields are typed validation failures', () => {
  const c = parseCron('*/15 9-17 * * 1-5');
  assert.deepEqual([...c.minutes], [0, 15, 30, 45]);
  assert.equal(c.hours.size, 9);
  assert.deepEqual([...parseCron('0 0 * * 7').weekdays], [0], 'Sunday is 0 or 7');
  for (const bad of ['* * * *', '60 * * * *', '* 24 * * *', '5-1 * * * *', '*/0 * * * *', 'a * * * *', '* * 0 * *', '* * * 13 *', '0 0 * * * *']) {
    assert.throws(() => parseCron(bad), (e: Error & { code?: string }) => e.code === 'validation_failed', bad);
  }
  assert.throws(() => checkZone('Mars/Olympus'), (e: Error & { code?: string }) => e.code === 'validation_failed');
  assert.equal(checkZone('Europe/Berlin'), 'Europe/Berlin');
});

test('weekday and zone: 09:00 on weekdays in Tokyo and New York', () => {
  assert.deepEqual(fires('0 9 * * 1-5', 'Asia/Tokyo', '2026-01-02T00:00:00Z', '2026-01-06T23:59:00Z'), ['2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z']);
  assert.deepEqual(fires('0 9 * * 1-5', 'America/New_York', '2026-01-02T15:00:00Z', '2026-01-06T00:00:00Z'), ['2026-01-05T14:00:00.000Z']);
  assert.deepEqual(fires('0 0 29 2 *', 'UTC', '2026-01-01T00:00:00Z', '2029-01-01T00:00:00Z'), ['2028-02-29T00:00:00.000Z'], 'a leap-day cron finds its day years ahead');
});

test('spring forward: a nonexistent local time fires at the first valid instant after the gap, once (New York and Berlin)', () => {
  // New York 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00Z).
  assert.deepEqual(fires('30 2 * * *', 'America/New_York', '2026-03-07T00:00:00Z', '2026-03-09T12:00:00Z'), ['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
  // Every 30 minutes through the gap: 02:00 and 02:30 do not exist; 03:00 EDT fires once.
  assert.deepEqual(fires('0,30 * * * *', 'America/New_York', '2026-03-08T06:10:00Z', '2026-03-08T07:40:00Z'), ['2026-03-08T06:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z']);
  // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00Z).
  assert.deepEqual(fires('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z'), ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  assert.equal(instantOf(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin'), Z('2026-03-29T01:00:00Z'));
});

test('fall back: a repeated local hour fires once, at its first occurrence (New York and Berlin)', () => {
  // New York 2026-11-01: 01:00-01:59 happens at EDT (05:xxZ) and again at EST (06:xxZ).
  assert.deepEqual(fires('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z'), ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  // Hourly through the repeated hour: 01:00 fires once; the next is 02:00 EST.
  assert.deepEqual(fires('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', '2026-11-01T07:30:00Z'), ['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z']);
  // Berlin 2026-10-25: 02:00-02:59 happens at CEST (00:xxZ) and again at CET (01:xxZ).
  assert.deepEqual(fires('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z'), ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
});
