import Foundation
import PostgresNIO

/// The statement that commits a group of `/pub` writes: one round trip for the whole group, where
/// checking the accounts, saving the fields, storing the locations and taking the due commands were
/// a statement each.
extension PostgresTrackStorage {
    /// The statement of ``commitOwnTracks(_:)``, the writes bound as arrays of their columns and a
    /// JSON array of their OwnTracks fields and profiles:
    /// - `a` locks the group's devices for share and reads their accounts;
    /// - `h` is the writes, each `held` when its account is still the stored one (token digest and
    ///   profile). A flag rather than a join's condition: the planner, which expects one row from
    ///   such a join, then joined `u` and `taken` by nested loop, quadratic in the group's size;
    /// - `u` is the first held write of each key, whose fields are saved and whose location is stored;
    /// - `x` is the first held write of each device, whose date takes the device's due commands.
    ///
    /// Its rows say which writes held (`held`, with the write's index), which keys were stored
    /// (`stored`) and which commands were taken (`took`).
    static func ownTracksGroupQuery(_ writes: [OwnTracksWrite]) throws -> PostgresQuery {
        let rows = writes.map { LocationRow(device: $0.account.profile.device, record: $0.record, received: $0.date) }
        let hashes = writes.map { ByteBuffer(bytes: $0.account.tokenHash) }
        let json = String(decoding: try JSONEncoder().encode(writes.map(GroupFields.init)), as: UTF8.self)
        return """
            WITH w AS (
                SELECT * FROM ROWS FROM (
                    unnest(\(columnsOf: rows), \(hashes)::bytea[]),
                    jsonb_to_recordset(\(json)::jsonb) AS (tid TEXT, topic TEXT, batt BIGINT, bs BIGINT, conn TEXT, ssid TEXT, bssid TEXT,
                        message TEXT, owntracks_user TEXT, device_name TEXT, friends_group TEXT, secret TEXT)
                ) WITH ORDINALITY AS w(\(unescaped: locationColumns), token_hash, tid, topic, batt, bs, conn, ssid, bssid, message,
                    owntracks_user, device_name, friends_group, secret, n)
            ), a AS (
                SELECT d.id, d.token_hash, p.owntracks_user, p.device_name, p.friends_group, p.secret
                FROM device d LEFT JOIN owntracks_device p ON p.device_id = d.id WHERE d.id IN (SELECT device_id FROM w)
                ORDER BY d.id COLLATE "C" FOR SHARE OF d
            ), h AS (
                SELECT w.*, a.token_hash IS NOT DISTINCT FROM w.token_hash
                    AND (a.owntracks_user, a.device_name, a.friends_group, a.secret)
                        IS NOT DISTINCT FROM (w.owntracks_user, w.device_name, w.friends_group, w.secret) AS held
                FROM w LEFT JOIN a ON a.id = w.device_id
            ), u AS (
                SELECT DISTINCT ON (device_id, id) * FROM h WHERE held ORDER BY device_id, id, n
            ), saved AS (
                INSERT INTO owntracks_location (\(unescaped: fieldsColumns))
                SELECT \(unescaped: fieldsColumns) FROM u ORDER BY device_id, id
                \(unescaped: savingFields)
            ), \(unescaped: storing), x AS (
                SELECT DISTINCT ON (device_id) device_id, received AS now FROM h WHERE held ORDER BY device_id, n
            ), took AS (
                \(unescaped: taking)
            )
            SELECT 'held', n - 1, device_id, NULL::uuid, NULL::bigint, NULL::text FROM h WHERE held
            UNION ALL SELECT 'stored', NULL, device_id, id, NULL, NULL FROM stored
            UNION ALL SELECT 'took', NULL, device_id, NULL, seq, body FROM took
            """
    }

    /// What one row of ``ownTracksGroupQuery(_:)`` says.
    enum GroupOutcome {
        /// The write at this index still had the stored account.
        case held(Int)
        /// This key's location was stored by the group.
        case stored(LocationRow.Key)
        /// This command was taken for its device.
        case took(device: String, seq: Int64, body: String)

        init(_ row: PostgresRow) throws {
            switch try row.decode((String, Int?, String, UUID?, Int64?, String?).self) {
            case ("held", let n?, _, _, _, _): self = .held(n)
            case ("stored", _, let device, let id?, _, _): self = .stored(LocationRow.Key(device: device, id: id))
            case ("took", _, let device, _, let seq?, let body?): self = .took(device: device, seq: seq, body: body)
            case let row: throw PostgresGroupRowError(row: "\(row)")
            }
        }
    }

    /// The OwnTracks fields of a group's write and the profile it was authenticated with, as
    /// ``ownTracksGroupQuery(_:)`` binds them in JSON (a missing value is left out: NULL).
    private struct GroupFields: Encodable {
        let tid: String?
        let topic: String?
        let batt: Int?
        let bs: Int?
        let conn: String?
        let ssid: String?
        let bssid: String?
        let message: String
        let user: String?
        let name: String?
        let group: String?
        let secret: String?

        enum CodingKeys: String, CodingKey {
            case tid, topic, batt, bs, conn, ssid, bssid, message, secret
            case user = "owntracks_user"
            case name = "device_name"
            case group = "friends_group"
        }

        init(_ write: OwnTracksWrite) {
            tid = write.fields.tid
            topic = write.fields.topic
            batt = write.fields.battery
            bs = write.fields.batteryStatus
            conn = write.fields.connectivity
            ssid = write.fields.ssid
            bssid = write.fields.bssid
            message = write.fields.message
            user = write.account.profile.user
            name = write.account.profile.name
            group = write.account.profile.group
            secret = write.account.profile.key
        }
    }
}

/// A row of a group's statement that fits none of its kinds: the statement and its reader disagree.
struct PostgresGroupRowError: Error, CustomStringConvertible {
    let row: String
    var description: String { "a /pub group's statement returned a row its reader does not know: \(row)" }
}
