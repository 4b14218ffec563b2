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

    /// A location object as the Recorder's API has it: the fields the device sent, `topic` and `tid`
    /// when the device sent none, `isotst` and `disptst`; then, as in `/api/0/last` (`history` false),
    /// `username` and `device`, or, as in `/api/0/locations` (`history` true), `isorcv`, which the
    /// Recorder takes from the time stamp of the line in its `.rec` file: the message's `tst` (its
    /// `doc/STORE.md`), so the location's time here too, not when we stored it.
    static func location(_ location: OwnTracksLocation, profile: OwnTracksProfile, history: Bool) -> [String: Any] {
        var object = sent(location, profile: profile)
        if object["topic"] == nil { object["topic"] = profile.topic }
        if object["tid"] == nil { object["tid"] = profile.defaultTrackerID }
        let time = location.record.fix.timestamp
        object["isotst"] = isoTime(time)
        object["disptst"] = isoTime(time).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        if history {
            object["isorcv"] = isoTime(time)
        } else {
            object["username"] = profile.ownTracksUser
            object["device"] = profile.ownTracksDevice
        }
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
    /// gives them (`name` the tid, `tst`, `vel`, `acc`, `alt`, `address` and `isotst`). `address` is
    /// the Recorder's reverse-geocoded address; we look none up, so it is empty, as the Recorder's
    /// is without reverse geocoding.
    static func geoJSON(_ objects: [[String: Any]]) -> [String: Any] {
        let integer = { (object: [String: Any], key: String) in Int(OwnTracksWire.number(object[key]) ?? 0) }
        return featureCollection(objects) { object in
            [
                "name": object["tid"] ?? "", "tst": integer(object, "tst"), "vel": integer(object, "vel"), "acc": integer(object, "acc"),
                "alt": integer(object, "alt"), "address": "", "isotst": object["isotst"] ?? "",
            ]
        }
    }

    /// The location objects that name a point of interest (`poi`) as a GeoJSON FeatureCollection of
    /// points, as the Recorder's `geojsonpoi` has them: `name` the `poi`, `address` (empty) and `isotst`.
    static func geoJSONPOI(_ objects: [[String: Any]]) -> [String: Any] {
        featureCollection(objects.filter { $0["poi"] != nil }) { object in
            ["name": object["poi"] ?? "", "address": "", "isotst": object["isotst"] ?? ""]
        }
    }

    /// Location objects as one GeoJSON LineString Feature, as the Recorder's `linestring` has it.
    static func lineString(_ objects: [[String: Any]]) -> [String: Any] {
        [
            "type": "Feature", "properties": [String: Any](),
            "geometry": ["type": "LineString", "coordinates": objects.map { [$0["lon"] ?? 0, $0["lat"] ?? 0] }],
        ]
    }

    /// A FeatureCollection of one point per object, with the `properties` of each.
    private static func featureCollection(_ objects: [[String: Any]], properties: ([String: Any]) -> [String: Any]) -> [String: Any] {
        let features: [[String: Any]] = objects.map { object in
            [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": [object["lon"] ?? 0, object["lat"] ?? 0]],
                "properties": properties(object),
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
        // An empty array, what most `/pub` answers are, is written without the serializer.
        let data =
            (value as? [Any])?.isEmpty == true
            ? Data("[]".utf8)
            : (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
