import { WhereaboutsError } from '../../typescript/src/index.js';
import type { ClearLocationsResult, CurrentLocation, GetLocationsOptions, ReportItem, StoredLocation } from '../../typescript/src/index.js';

/**
 * The positions a browser session recorded, in memory and oldest first: what the web plugin answers
 * `getCurrentLocation`, `getLocations` and `clearLocations` from. Nothing is uploaded, so every record
 * is `uploaded: false` and `includeUploaded` changes nothing.
 */
export class Trail {
  private readonly records: StoredLocation[] = [];

  /** Stores a position as the newest record. */
  add(item: ReportItem): void {
    this.records.push({ ...item, uploaded: false });
  }

  /** The newest record in `getCurrentLocation`'s shape, or `null` before the first. */
  newest(): CurrentLocation | null {
    const last = this.records[this.records.length - 1];
    return last === undefined ? null : { lat: last.latitude, lng: last.longitude, timestamp: last.timestamp };
  }

  /**
   * The newest `limit` records (1000 by default), oldest first. Refuses what the device refuses, with
   * `invalidArguments`: a `limit` that is not a whole number from 1 to 100000, an `includeUploaded`
   * that is not a boolean.
   */
  list(options: GetLocationsOptions): StoredLocation[] {
    // null is absent, as the device decodes it.
    const given = options as { limit?: unknown; includeUploaded?: unknown };
    const limit = given.limit ?? 1000;
    const includeUploaded = given.includeUploaded ?? undefined;
    const expected = '; pass {"includeUploaded"?: bool, "limit"?: 1 to 100000}';
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100000) {
      throw new WhereaboutsError('invalidArguments', `getLocations: limit ${String(limit)} is not a whole number in 1...100000${expected}`);
    }
    if (includeUploaded !== undefined && typeof includeUploaded !== 'boolean') {
      throw new WhereaboutsError('invalidArguments', `getLocations: includeUploaded ${String(includeUploaded)} is not a boolean${expected}`);
    }
    return this.records.slice(-limit);
  }

  /** Forgets every record. */
  clear(): ClearLocationsResult {
    return { removed: this.records.splice(0).length };
  }
}
