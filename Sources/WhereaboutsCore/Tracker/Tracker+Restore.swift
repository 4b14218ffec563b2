import Foundation

extension Tracker {
    /// Restores what a relaunched app knew before it was killed, before tracking starts again: the
    /// last stored record (so a fix at the same place continues its stay instead of adding a row,
    /// unless the record was taken moving, which starts no stay, as in a running app;
    /// a placed record's stay is then judged around its placed position, the only one stored; nor
    /// when `stayEnded`, the previous process having seen the device leave) and
    /// the device's state in each region (so a region left while the app was dead is reported as
    /// an exit, one entered meanwhile as an entry, and a dwell keeps counting from the original
    /// entry, or stays reported). Regions without a state stay undetermined.
    public mutating func restore(lastRecord: LocationRecord?, stayEnded: Bool = false, regionStates: [RegionStateRecord]) {
        self.lastRecord = lastRecord?.fix
        stay = Stay(
            lastThere: lastRecord.map { $0.fix.timestamp.addingTimeInterval($0.dwell) } ?? .distantPast, written: lastRecord?.dwell ?? 0,
            open: lastRecord.map { !stayEnded && !RecordPolicy.isMoving($0.fix) } ?? false,
            placedWithin: lastRecord?.fix.horizontalAccuracy ?? .infinity)
        geofences.restore(regionStates)
    }
}
