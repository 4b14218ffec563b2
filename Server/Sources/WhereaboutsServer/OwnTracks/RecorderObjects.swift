import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WhereaboutsCore

/// The JSON objects the OwnTracks Recorder answers with, built from what we store: location objects
/// for `/api/0/last` and `/api/0/locations`, and friends' `location` and `card` messages for `/pub`.
enum RecorderObjects {
    /// The fields the device sent: its stored message, or, for a location that came through our batch
    /// API, the message our own OwnTracks uploader sends for it.
    static func sent(_ location: OwnTracksLocation, profile: OwnTracksProfile) -> [String: Any] {
        let message =
            location.fields.map { Data($0.message.utf8) }
            ?? OwnTracksEndpoint.message(for: location.record, trackerID: profile.defaultTrackerID)
        return (try? JSONSerialization.jsonObject(with: message) as? [String: Any]) ?? [:]
    }

    /// A location object as the Recorder's API has it: the fields the device sent, then `username`,
    /// `device`, `topic` (when the device sent none), `tid` (likewise), `isotst` and `disptst`, and
    /// `isorcv` when `received` (as `/api/0/locations` has it).
    static func location(_ location: OwnTracksLocation, profile: OwnTracksProfile, received: Bool) -> [String: Any] {
        var object = sent(location, profile: profile)
        object["username"] = profile.ownTracksUser
        object["device"] = profile.ownTracksDevice
        if object["topic"] == nil { object["topic"] = profile.topic }
        if object["tid"] == nil { object["tid"] = profile.defaultTrackerID }
        let time = location.record.fix.timestamp
        object["isotst"] = isoTime(time)
        object["disptst"] = isoTime(time).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        if received { object["isorcv"] = isoTime(location.receivedAt) }
        return object
    }

    /// A card's members merged into `object` where it has none of its own (as the Recorder's `last` does).
    static func merging(card: DeviceMessage?, into object: [String: Any]) -> [String: Any] {
        guard let card, let members = try? JSONSerialization.jsonObject(with: Data(card.body.utf8)) as? [String: Any] else { return object }
        return object.merging(members) { own, _ in own }
    }

    /// What a friend's device shows in a `/pub` answer, as the Recorder's HTTP mode sends it: its
    /// `card` (when it sent one with a name or face) and its last `location`, both with its `tid`.
    static func friend(_ location: OwnTracksLocation, card: DeviceMessage?, profile: OwnTracksProfile) -> [[String: Any]] {
        let sent = sent(location, profile: profile)
        let tid = sent["tid"] as? String ?? profile.defaultTrackerID
        var messages: [[String: Any]] = []
        if let card, let members = try? JSONSerialization.jsonObject(with: Data(card.body.utf8)) as? [String: Any],
            members["name"] != nil || members["face"] != nil
        {
            var object: [String: Any] = ["_type": "card", "tid": tid]
            for key in ["name", "face"] { object[key] = members[key] }
            messages.append(object)
        }
        var object: [String: Any] = ["_type": "location", "tid": tid, "topic": sent["topic"] as? String ?? profile.topic]
        for key in ["lat", "lon", "tst", "vel", "alt", "cog", "acc", "vac"] { object[key] = sent[key] }
        messages.append(object)
        return messages
    }

    /// Location objects as a GeoJSON FeatureCollection of points, with the properties the Recorder
    /// gives them (`name` the tid, `tst`, `vel`, `acc`, `alt`, `isotst`).
    static func geoJSON(_ objects: [[String: Any]]) -> [String: Any] {
        let integer = { (object: [String: Any], key: String) in Int(OwnTracksWire.number(object[key]) ?? 0) }
        let features: [[String: Any]] = objects.map { object in
            [
                "type": "Feature",
                "geometry": ["type": "Point", "coordinates": [object["lon"] ?? 0, object["lat"] ?? 0]],
                "properties": [
                    "name": object["tid"] ?? "", "tst": integer(object, "tst"), "vel": integer(object, "vel"),
                    "acc": integer(object, "acc"),
                    "alt": integer(object, "alt"), "isotst": object["isotst"] ?? "",
                ],
            ]
        }
        return ["type": "FeatureCollection", "features": features]
    }

    /// `2024-02-02T07:15:49Z`: UTC to the second, as the Recorder writes `isotst`.
    static func isoTime(_ date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
    }

    /// An answer of a JSON value built with Foundation objects (sorted keys, slashes unescaped).
    static func response(_ value: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
