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

  /** The newest `limit` records (1000 by default), oldest first. */
  list(options: GetLocationsOptions): StoredLocation[] {
    return this.records.slice(-(options.limit ?? 1000));
  }

  /** Forgets every record. */
  clear(): ClearLocationsResult {
    return { removed: this.records.splice(0).length };
  }
}
