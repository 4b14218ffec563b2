import Foundation
import WhereaboutsCore
import WhereaboutsDelivery

/// A stored record as `getLocations` lists it: the report item's fields and whether a server
/// acknowledged it.
struct StoredLocationValue: Encodable {
    let item: LocationData.ReportItem
    let uploaded: Bool

    init(_ record: LocationRecord, state: DeliveryState) {
        item = LocationData.ReportItem(record: record)
        uploaded = state == .delivered
    }

    func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uploaded, forKey: .uploaded)
    }

    private enum CodingKeys: String, CodingKey { case uploaded }
}

/// A flush's report as `flush` answers it and the `upload` event pushes it.
struct FlushValue: Encodable {
    let trigger: String
    let delivered: Int
    let eventsDelivered: Int
    let rejected: Int
    let requests: Int
    /// `null` when nothing stopped the flush, else what did (``BridgeUploadStop``).
    let stoppedBy: BridgeUploadStop?
    let message: String?
    /// When the next attempt may go out, in JavaScript milliseconds.
    let retryAt: Int64?

    init(_ report: FlushReport) {
        trigger = report.trigger.rawValue
        delivered = report.delivered
        eventsDelivered = report.eventsDelivered
        rejected = report.rejected
        requests = report.requests
        switch report.stoppedBy {
        case nil: (stoppedBy, message, retryAt) = (nil, nil, nil)
        case .signedOut: (stoppedBy, message, retryAt) = (.signedOut, "no credential: call setAuth", nil)
        case .failed(let why, let at): (stoppedBy, message, retryAt) = (.failed, why, JavaScriptTime.milliseconds(at))
        case .backingOff(let at): (stoppedBy, message, retryAt) = (.backingOff, nil, JavaScriptTime.milliseconds(at))
        case .storeError(let why): (stoppedBy, message, retryAt) = (.storeError, why, nil)
        case .misconfigured(let why): (stoppedBy, message, retryAt) = (.misconfigured, why, nil)
        case .outOfTime: (stoppedBy, message, retryAt) = (.outOfTime, "the drain ran out of time; the rest goes at the next flush", nil)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(delivered, forKey: .delivered)
        try c.encode(eventsDelivered, forKey: .eventsDelivered)
        try c.encode(rejected, forKey: .rejected)
        try c.encode(requests, forKey: .requests)
        try c.encode(stoppedBy, forKey: .stoppedBy)
        try c.encode(message, forKey: .message)
        try c.encode(retryAt, forKey: .retryAt)
    }

    private enum CodingKeys: String, CodingKey { case trigger, delivered, eventsDelivered, rejected, requests, stoppedBy, message, retryAt }
}
